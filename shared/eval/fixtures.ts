// What every scenario starts from: a team and its agents, created through
// the real team and agent stores; and an agent's claim loop as an agent
// running on svc behaves (take the first free task; a 409 means someone else
// has it, so move on and never retry it).
import type { Board } from '../board/board.ts';
import type { Task } from '../board/types.ts';
import type { Domain } from '../domain.ts';
import { attempt, type Attempt } from './graders.ts';

/** Creates a team with these agents (the first is the team's lead) and returns the team id. */
export function seedTeam(domain: Domain, agentIds: readonly string[]): string {
  const team = domain.teams.create({ name: 'eval team', icon: 'flask', color: '#4a7', leaderAgentId: agentIds[0] ?? null });
  agentIds.forEach((id, i) => domain.agents.create({ id, name: id, teamId: team.id, role: i === 0 ? 'lead' : 'member' }));
  return team.id;
}

export interface ClaimLoop {
  attempts: Array<{ taskId: string; result: Attempt<Task> }>;
  claimed: Task | null;
}

/**
 * Tries `candidates` in order and stops at the first claim that succeeds.
 * A conflict moves on to the next task without retrying; any other refusal
 * ends the loop (the agent reports instead of guessing).
 */
export function claimFirstFree(board: Board, agentId: string, candidates: readonly Task[]): ClaimLoop {
  const loop: ClaimLoop = { attempts: [], claimed: null };
  for (const task of candidates) {
    const result = attempt(() => board.claim(task.id, agentId));
    loop.attempts.push({ taskId: task.id, result });
    if (result.ok) {
      loop.claimed = result.value;
      break;
    }
    if (result.kind !== 'conflict') break;
  }
  return loop;
}

/** The status moves recorded for a task, in order (field-only edits left out). */
export function statusMoves(events: ReadonlyArray<{ kind: string; data: string }>): Array<{ from: string; to: string }> {
  return events
    .filter((e) => e.kind === 'status_changed' || e.kind === 'task_claimed')
    .map((e) => JSON.parse(e.data) as { from: string; to: string })
    .filter((d) => d.from !== d.to);
}
