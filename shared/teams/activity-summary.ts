// The team activity snapshot (spec "GET /api/teams/:id/activity-summary"):
// in order the lead brief, the board summary, saved memory and recent chat,
// against a 2,500-character budget. The brief is clipped to 900; the board
// summary and memory are kept whole (the board summary is bounded by
// construction); recent chat (up to 30 turns) gets what is left, the oldest
// turns dropped first. null when there is nothing to say.
import type { AgentStore } from '../agents/store.ts';
import type { Board, BoardSnapshot } from '../board/board.ts';
import { CLOSED } from '../board/transitions.ts';
import { TASK_STATUSES, type Task } from '../board/types.ts';
import type { Db } from '../db/open.ts';
import type { LeadBriefs } from '../lead/briefs.ts';
import type { LeadResolver } from '../lead/resolve.ts';
import type { Logger } from '../log.ts';
import { teamSessionKey } from '../team-chat/schemas.ts';

export const SUMMARY_BUDGET = 2500;
export const BRIEF_MAX = 900;
export const CHAT_TURNS_MAX = 30;
/** Open tasks listed by title in the board summary (the rest are counted). */
export const BOARD_OPEN_LISTED = 8;
const TASK_TITLE_MAX = 80;

/** The memory store arrives with the memory MCP server; until then the section is omitted. */
export interface TeamMemorySource {
  forTeam(teamId: string): string | null;
}

export interface ActivitySummaryDeps {
  db: Db;
  agents: AgentStore;
  board: Board;
  briefs: LeadBriefs;
  lead: LeadResolver;
  logger: Logger;
  memory?: TeamMemorySource;
}

const clip = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, Math.max(0, max - 1))}…`);
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The board section from a team's status counts and its most recently updated open tasks. */
export function formatBoardSummary(counts: BoardSnapshot['counts'], recentOpen: readonly Task[]): string | null {
  const present = TASK_STATUSES.map((s) => [s, counts[s] ?? 0] as const).filter(([, n]) => n > 0);
  const total = present.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  const lines = [`${total} task${total === 1 ? '' : 's'}: ${present.map(([s, n]) => `${n} ${s}`).join(', ')}`];
  for (const t of recentOpen.slice(0, BOARD_OPEN_LISTED)) {
    lines.push(`- [${t.status}] ${clip(oneLine(t.title), TASK_TITLE_MAX)}${t.assigneeAgentId ? ` (${t.assigneeAgentId})` : ''}`);
  }
  return lines.join('\n');
}

/** The same section from a list of tasks (what the snapshot query computes in SQL). */
export function boardSummary(tasks: readonly Task[]): string | null {
  const counts: BoardSnapshot['counts'] = {};
  for (const t of tasks) counts[t.status] = (counts[t.status] ?? 0) + 1;
  const open = tasks.filter((t) => !CLOSED.has(t.status)).sort((a, b) => b.updatedAt - a.updatedAt);
  return formatBoardSummary(counts, open);
}

interface Turn {
  id: number;
  line: string;
}

export function createActivitySummary(deps: ActivitySummaryDeps): (teamId: string) => string | null {
  const { db, agents, board, briefs, lead, logger, memory } = deps;
  const teamExists = db.prepare('SELECT 1 FROM teams WHERE id = ?').pluck();
  const recentStmt = db.prepare(`SELECT id, entry FROM chat_messages WHERE session_key = ? ORDER BY id DESC LIMIT ${CHAT_TURNS_MAX}`);

  /**
   * The team's newest meaningful turns, newest first, at most CHAT_TURNS_MAX.
   * A row is parsed only when the summary gets that far: it is built on
   * every delivery, and the chat section is usually full long before the
   * last of the rows read.
   */
  function* recentTurns(teamId: string): Generator<Turn> {
    const members = agents.list({ teamId, includeArchived: true });
    const names = new Map(members.map((a) => [a.id, a.name]));
    const eff = lead.effective();
    const ids = new Set(members.map((a) => a.id));
    if (eff) {
      ids.add(eff.agentId);
      // The lead is rarely a member: name its turns as the dashboard shows it, not by its id.
      if (!names.has(eff.agentId)) names.set(eff.agentId, eff.displayName ?? eff.name ?? eff.agentId);
    }
    const rows: Array<{ id: number; entry: string; agentId: string }> = [];
    for (const agentId of ids) {
      for (const row of recentStmt.all(teamSessionKey(agentId, teamId)) as Array<{ id: number; entry: string }>) rows.push({ ...row, agentId });
    }
    rows.sort((a, b) => b.id - a.id);
    let given = 0;
    for (const row of rows) {
      if (given === CHAT_TURNS_MAX) return;
      const line = turnLine(row.entry, names.get(row.agentId) ?? row.agentId, logger);
      if (!line) continue;
      given++;
      yield { id: row.id, line };
    }
  }

  return (teamId) => {
    // The spec: an unknown team is `null`, even when tasks or transcripts still name its id.
    if (teamExists.get(teamId) !== 1) return null;
    const sections: string[] = [];
    const brief = briefs.teamBrief(teamId).content?.trim();
    if (brief) sections.push(`## Lead brief\n${clip(brief, BRIEF_MAX)}`);
    const snap = board.snapshot(teamId, BOARD_OPEN_LISTED);
    const boardText = formatBoardSummary(snap.counts, snap.recentOpen);
    if (boardText) sections.push(`## Board\n${boardText}`);
    if (memory) {
      try {
        const saved = memory.forTeam(teamId)?.trim();
        if (saved) sections.push(`## Memory\n${saved}`);
      } catch (err) {
        // The spec: a memory-store failure drops the section, not the summary.
        logger.warn({ err, teamId }, 'activity summary: memory store failed; section omitted');
      }
    }
    const used = sections.reduce((n, s) => n + s.length + 2, 0);
    const chat = fitTurns(recentTurns(teamId), SUMMARY_BUDGET - used - '## Recent chat\n'.length);
    if (chat) sections.push(`## Recent chat\n${chat}`);
    return sections.length > 0 ? sections.join('\n\n') : null;
  };
}

/** Newest turns that fit in `budget` characters, in chronological order; the oldest go first. Reads no turn past the first that does not fit. */
export function fitTurns(newestFirst: Iterable<Turn>, budget: number): string | null {
  const kept: string[] = [];
  let left = budget;
  for (const t of newestFirst) {
    const cost = t.line.length + (kept.length > 0 ? 1 : 0);
    if (cost > left) {
      // The newest turn alone is too long: keep its start rather than nothing.
      if (kept.length === 0 && left > 20) kept.push(clip(t.line, left));
      break;
    }
    kept.push(t.line);
    left -= cost;
  }
  return kept.length > 0 ? kept.reverse().join('\n') : null;
}

/** A meaningful turn: a user or assistant entry with text; meta and system rows are not. */
function turnLine(entryJson: string, agentName: string, logger: Logger): string | null {
  let e: { role?: unknown; kind?: unknown; text?: unknown };
  try {
    e = JSON.parse(entryJson) as typeof e;
  } catch (err) {
    logger.warn({ err }, 'activity summary: skipped a transcript row that is not JSON');
    return null;
  }
  if (typeof e.text !== 'string' || e.kind === 'meta' || e.role === 'system') return null;
  const text = oneLine(e.text);
  if (text === '') return null;
  return `${e.role === 'user' ? 'User' : agentName}: ${text}`;
}
