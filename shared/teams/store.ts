// The teams table and the team-scoped settings it owns (spec "Teams").
import type { Db } from '../db/open.ts';
import type { SettingsTable } from '../db/settings-table.ts';
import type { Tx } from '../db/tx.ts';
import { conflict, notFound } from '../errors.ts';
import { uuidv7 } from '../ids.ts';
import { TEAM_KEYS } from '../setting-keys.ts';
import { isServerOrchestrated } from './orchestration.ts';
import { TEAM_MESSAGES, type TeamCreate, type TeamPatch } from './schemas.ts';
import { TEAM_COLUMNS_SQL, type Team, type TeamList } from './types.ts';

export interface TeamStore {
  list(includeArchived: boolean): TeamList;
  get(id: string): Team | null;
  exists(id: string): boolean;
  create(input: TeamCreate): Team;
  /** Writes only the supplied fields; updatedAt always. Throws not_found. */
  update(id: string, patch: TeamPatch): Team;
  /** One transaction: orphan members, drop the team's settings, delete the team (briefs cascade). */
  remove(id: string): void;
  /** The chat gate (spec "Team-scoped settings entries"): off only when the setting is the literal `false`. */
  isServerOrchestrated(id: string): boolean;
  /** Writes the setting as `true` or `false`; throws not_found for a team that does not exist. */
  setServerOrchestrated(id: string, on: boolean): void;
}

export function createTeamStore(db: Db, tx: Tx, settings: SettingsTable, now: () => number = Date.now): TeamStore {
  // One grouped count instead of a subquery per team.
  const listStmt = db.prepare(
    `SELECT ${TEAM_COLUMNS_SQL}, COALESCE(c.n, 0) AS agentCount
     FROM teams t
     LEFT JOIN (SELECT team_id, COUNT(*) AS n FROM agents WHERE team_id IS NOT NULL GROUP BY team_id) c ON c.team_id = t.id
     WHERE (@all = 1 OR t.is_archived = 0)
     ORDER BY t.created_at, t.id`,
  );
  const assignmentsStmt = db.prepare(
    'SELECT id AS agentId, team_id AS teamId FROM agents WHERE team_id IS NOT NULL ORDER BY team_id, created_at, id',
  );
  const getStmt = db.prepare(
    `SELECT ${TEAM_COLUMNS_SQL}, (SELECT COUNT(*) FROM agents a WHERE a.team_id = t.id) AS agentCount
     FROM teams t WHERE t.id = ?`,
  );
  const existsStmt = db.prepare('SELECT 1 FROM teams WHERE id = ?').pluck();
  const insertStmt = db.prepare(
    `INSERT INTO teams (id, name, icon, color, color_collection_id, template_id, leader_agent_id, is_archived, created_at, updated_at)
     VALUES (@id, @name, @icon, @color, @colorCollectionId, @templateId, @leaderAgentId, 0, @now, @now)`,
  );
  const orphanStmt = db.prepare('UPDATE agents SET team_id = NULL, updated_at = ? WHERE team_id = ?');
  const deleteStmt = db.prepare('DELETE FROM teams WHERE id = ?');

  const PATCH_COLUMNS: Record<keyof TeamPatch, string> = {
    name: 'name',
    icon: 'icon',
    color: 'color',
    colorCollectionId: 'color_collection_id',
    isArchived: 'is_archived',
    leaderAgentId: 'leader_agent_id',
  };
  const patchStmts = new Map<string, ReturnType<Db['prepare']>>();
  const patchStmt = (cols: string[]) => {
    const key = cols.join(',');
    let s = patchStmts.get(key);
    if (!s) {
      const sets = [...cols.map((c) => `${c} = @${c}`), 'updated_at = @updated_at'].join(', ');
      s = db.prepare(`UPDATE teams SET ${sets} WHERE id = @id`);
      patchStmts.set(key, s);
    }
    return s;
  };

  const get = (id: string) => (getStmt.get(id) as Team | undefined) ?? null;

  return {
    list: (includeArchived) => ({
      teams: listStmt.all({ all: includeArchived ? 1 : 0 }) as Team[],
      assignments: assignmentsStmt.all() as TeamList['assignments'],
    }),
    get,
    exists: (id) => existsStmt.get(id) === 1,
    create(input) {
      const id = input.id ?? uuidv7();
      const t = now();
      tx.run(() => {
        if (existsStmt.get(id) === 1) throw conflict('team already exists');
        insertStmt.run({
          id,
          name: input.name,
          icon: input.icon,
          color: input.color,
          colorCollectionId: input.colorCollectionId ?? null,
          templateId: input.templateId ?? null,
          leaderAgentId: input.leaderAgentId ?? null,
          now: t,
        });
        if (input.serverOrchestrated === true) settings.set(TEAM_KEYS.serverOrchestrated(id), 'true');
      });
      return get(id) as Team;
    },
    update(id, patch) {
      const cols: string[] = [];
      const params: Record<string, unknown> = { id, updated_at: now() };
      for (const [field, col] of Object.entries(PATCH_COLUMNS) as Array<[keyof TeamPatch, string]>) {
        if (patch[field] === undefined) continue;
        cols.push(col);
        params[col] = patch[field];
      }
      const info = patchStmt(cols).run(params);
      if (info.changes === 0) throw notFound(TEAM_MESSAGES.notFound);
      return get(id) as Team;
    },
    remove(id) {
      tx.run(() => {
        orphanStmt.run(now(), id);
        settings.delete(TEAM_KEYS.rules(id));
        settings.delete(TEAM_KEYS.onboarding(id));
        // Beyond the spec's two keys: the chat gate of a team that is gone.
        settings.delete(TEAM_KEYS.serverOrchestrated(id));
        settings.delete(TEAM_KEYS.subDelegation(id));
        settings.delete(TEAM_KEYS.runawayLimits(id));
        deleteStmt.run(id);
      });
    },
    isServerOrchestrated: (id) => isServerOrchestrated(settings, id),
    setServerOrchestrated(id, on) {
      tx.run(() => {
        if (existsStmt.get(id) !== 1) throw notFound(TEAM_MESSAGES.notFound);
        settings.set(TEAM_KEYS.serverOrchestrated(id), on ? 'true' : 'false');
      });
    },
  };
}
