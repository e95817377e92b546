// Seeded databases for benchmarks: opened with the project's openDatabase (so
// the schema is migrated exactly as svc migrates it), filled with plain SQL in
// one transaction, ids minted as the product mints them (UUIDv7), then
// checkpointed and closed, so the main file alone holds everything (it can be
// copied, or handed to svc as its home's svc.db).
import { checkpointAndClose, openDatabase } from '../../../shared/db/open.ts';
import { uuidv7 } from '../../../shared/ids.ts';

export interface TeamsSeed {
  teams: number;
  agents: number;
  /** How many agents each team gets; the others stay unassigned (team_id NULL). */
  assignedPerTeam: number;
}

export interface TeamsSeeded {
  teamIds: string[];
  assigned: number;
}

/** `teams` teams and `agents` agents; agent i goes to team i % teams while i < teams × assignedPerTeam. */
export function seedTeams(dbPath: string, seed: TeamsSeed): TeamsSeeded {
  const db = openDatabase(dbPath);
  try {
    const t0 = Date.now() - 24 * 3600 * 1000;
    const teamIds: string[] = [];
    let assigned = 0;
    db.transaction(() => {
      const team = db.prepare(
        `INSERT INTO teams (id, name, icon, color, color_collection_id, template_id, leader_agent_id, is_archived, created_at, updated_at)
         VALUES (?, ?, ?, ?, NULL, NULL, NULL, 0, ?, ?)`,
      );
      for (let i = 0; i < seed.teams; i++) {
        const at = t0 + i;
        const id = uuidv7(at);
        teamIds.push(id);
        team.run(id, `Team ${String(i + 1).padStart(3, '0')}`, 'users', '#4f46e5', at, at);
      }
      const agent = db.prepare(
        `INSERT INTO agents (id, name, team_id, status, gateway_id, runtime, model, role, is_archived, created_at, updated_at)
         VALUES (@id, @name, @teamId, 'idle', @id, 'gateway', NULL, 'member', 0, @at, @at)`,
      );
      const assignedMax = seed.teams * seed.assignedPerTeam;
      for (let i = 0; i < seed.agents; i++) {
        const at = t0 + 60_000 + i;
        const teamId = i < assignedMax ? (teamIds[i % seed.teams] ?? null) : null;
        if (teamId !== null) assigned++;
        agent.run({ id: uuidv7(at), name: `agent-${String(i + 1).padStart(5, '0')}`, teamId, at });
      }
    })();
    return { teamIds, assigned };
  } finally {
    checkpointAndClose(db);
  }
}

/** `tasks` todo tasks (no team, no assignee) and the agents that will claim them; returns the agent ids. */
export function seedTasks(dbPath: string, tasks: number, agents: number): string[] {
  const db = openDatabase(dbPath);
  try {
    const t0 = Date.now() - 3600 * 1000;
    const agentIds: string[] = [];
    db.transaction(() => {
      const agent = db.prepare(
        `INSERT INTO agents (id, name, team_id, status, gateway_id, runtime, model, role, is_archived, created_at, updated_at)
         VALUES (@id, @name, NULL, 'idle', @id, 'gateway', NULL, 'member', 0, @at, @at)`,
      );
      for (let i = 0; i < agents; i++) {
        const id = uuidv7(t0 + i);
        agentIds.push(id);
        agent.run({ id, name: `claimer-${i + 1}`, at: t0 + i });
      }
      const task = db.prepare(
        `INSERT INTO tasks (id, team_id, title, description, status, created_at, updated_at)
         VALUES (?, NULL, ?, '', 'todo', ?, ?)`,
      );
      for (let i = 0; i < tasks; i++) {
        const at = t0 + 60_000 + i;
        task.run(uuidv7(at), `task ${i + 1}`, at, at);
      }
    })();
    return agentIds;
  } finally {
    checkpointAndClose(db);
  }
}
