// The agents table: one place for every read and write of an agent row.
// Team assignment (spec "POST /api/teams/:id/agents") creates the row when it
// does not exist yet: status `idle`, gateway id equal to the agent id.
import type { Db } from '../db/open.ts';
import type { SettingsTable } from '../db/settings-table.ts';
import type { Tx } from '../db/tx.ts';
import { conflict, notFound } from '../errors.ts';
import { uuidv7 } from '../ids.ts';
import { LEAD_KEYS } from '../setting-keys.ts';
import type { AgentCreate, AgentPatch } from './schemas.ts';
import { AGENT_COLUMNS_SQL, DEFAULT_RUNTIME, type Agent } from './types.ts';

export interface AgentFilter {
  teamId?: string;
  runtime?: string;
  includeArchived?: boolean;
}

export interface AgentStore {
  list(filter?: AgentFilter): Agent[];
  get(id: string): Agent | null;
  /** A live agent: exists and is not archived. */
  getLive(id: string): Agent | null;
  create(input: AgentCreate): Agent;
  update(id: string, patch: AgentPatch): Agent;
  /** Deletes the row and its lead display-name; clears the lead override naming it. False when absent. */
  remove(id: string): boolean;
  /** Assigns to a team, creating the row (idle, gateway id = id) when absent. */
  assignToTeam(agentId: string, teamId: string, agentName?: string): void;
  /** Sets the agent's team id to null; the row stays. */
  unassign(agentId: string): void;
  /** Ensures a row exists (cost records, personality): a placeholder named after its id. */
  ensure(agentId: string): void;
  /** The run status the team-chat orchestrator sets (`idle`, `running`, `error`); false when the agent is gone. */
  setStatus(agentId: string, status: string): boolean;
}

export function createAgentStore(db: Db, tx: Tx, settings: SettingsTable, now: () => number = Date.now): AgentStore {
  const listStmt = db.prepare(
    `SELECT ${AGENT_COLUMNS_SQL} FROM agents
     WHERE (@teamId IS NULL OR team_id = @teamId)
       AND (@runtime IS NULL OR runtime = @runtime)
       AND (@includeArchived = 1 OR is_archived = 0)
     ORDER BY created_at, id`,
  );
  const getStmt = db.prepare(`SELECT ${AGENT_COLUMNS_SQL} FROM agents WHERE id = ?`);
  const insertStmt = db.prepare(
    `INSERT INTO agents (id, name, team_id, status, gateway_id, runtime, model, role, is_archived, created_at, updated_at)
     VALUES (@id, @name, @teamId, 'idle', @gatewayId, @runtime, @model, @role, 0, @now, @now)
     ON CONFLICT (id) DO NOTHING`,
  );
  const assignStmt = db.prepare(
    `INSERT INTO agents (id, name, team_id, status, gateway_id, runtime, role, is_archived, created_at, updated_at)
     VALUES (@id, @name, @teamId, 'idle', @id, '${DEFAULT_RUNTIME}', 'member', 0, @now, @now)
     ON CONFLICT (id) DO UPDATE SET team_id = excluded.team_id, updated_at = excluded.updated_at`,
  );
  const ensureStmt = db.prepare(
    `INSERT INTO agents (id, name, status, gateway_id, runtime, role, is_archived, created_at, updated_at)
     VALUES (@id, @id, 'idle', @id, '${DEFAULT_RUNTIME}', 'member', 0, @now, @now)
     ON CONFLICT (id) DO NOTHING`,
  );
  const unassignStmt = db.prepare('UPDATE agents SET team_id = NULL, updated_at = ? WHERE id = ? AND team_id IS NOT NULL');
  const deleteStmt = db.prepare('DELETE FROM agents WHERE id = ?');
  const statusStmt = db.prepare('UPDATE agents SET status = ?, updated_at = ? WHERE id = ?');

  const get = (id: string) => (getStmt.get(id) as Agent | undefined) ?? null;

  // Column by column, so that only the fields supplied are written.
  const PATCH_COLUMNS: Record<keyof AgentPatch, string> = {
    name: 'name',
    teamId: 'team_id',
    runtime: 'runtime',
    model: 'model',
    gatewayId: 'gateway_id',
    role: 'role',
    isArchived: 'is_archived',
  };
  const patchStmts = new Map<string, ReturnType<Db['prepare']>>();
  const patchStmt = (cols: string[]) => {
    const key = cols.join(',');
    let s = patchStmts.get(key);
    if (!s) {
      const sets = cols.map((c) => `${c} = @${c}`).join(', ');
      s = db.prepare(`UPDATE agents SET ${sets}${sets ? ', ' : ''}updated_at = @updated_at WHERE id = @id`);
      patchStmts.set(key, s);
    }
    return s;
  };

  return {
    list: (f = {}) =>
      listStmt.all({ teamId: f.teamId ?? null, runtime: f.runtime ?? null, includeArchived: f.includeArchived ? 1 : 0 }) as Agent[],
    get,
    getLive(id) {
      const a = get(id);
      return a && a.isArchived === 0 ? a : null;
    },
    create(input) {
      const id = input.id ?? uuidv7();
      const runtime = input.runtime ?? DEFAULT_RUNTIME;
      const t = now();
      const info = insertStmt.run({
        id,
        name: input.name,
        teamId: input.teamId ?? null,
        // A gateway agent's gateway id is its own id unless given.
        gatewayId: input.gatewayId !== undefined ? input.gatewayId : runtime === DEFAULT_RUNTIME ? id : null,
        runtime,
        model: input.model ?? null,
        role: input.role ?? 'member',
        now: t,
      });
      if (info.changes === 0) throw conflict('agent already exists');
      return get(id) as Agent;
    },
    update(id, patch) {
      const cols: string[] = [];
      const params: Record<string, unknown> = { id, updated_at: now() };
      for (const [field, col] of Object.entries(PATCH_COLUMNS) as Array<[keyof AgentPatch, string]>) {
        if (patch[field] === undefined) continue;
        cols.push(col);
        params[col] = patch[field];
      }
      const info = patchStmt(cols).run(params);
      if (info.changes === 0) throw notFound('agent not found');
      return get(id) as Agent;
    },
    remove(id) {
      return tx.run(() => {
        const gone = deleteStmt.run(id).changes > 0;
        if (gone) {
          settings.delete(LEAD_KEYS.displayName(id));
          // A dangling override would name a lead that no longer exists.
          if (settings.get(LEAD_KEYS.override) === id) settings.set(LEAD_KEYS.override, '');
        }
        return gone;
      });
    },
    assignToTeam(agentId, teamId, agentName) {
      assignStmt.run({ id: agentId, name: agentName ?? agentId, teamId, now: now() });
    },
    unassign(agentId) {
      unassignStmt.run(now(), agentId);
    },
    ensure(agentId) {
      ensureStmt.run({ id: agentId, now: now() });
    },
    setStatus: (agentId, status) => statusStmt.run(status, now(), agentId).changes > 0,
  };
}
