// Whether a budget's target exists (a choice docs/budgets.md states): a
// budget for a team, agent or task svc does not know could never match a
// call, a silent no-op nobody would expect, so POST refuses it with 400.
// Agents are svc's agents (by id or gateway id) and the agents the model
// routing registry knows (gateway agents whose calls pass svc's endpoint).
import type { Db } from '../db/open.ts';
import { REGISTRY_KEY } from '../model-routing/registry.ts';
import type { BudgetScope } from './schemas.ts';

export type TargetExists = (scope: Exclude<BudgetScope, 'global'>, id: string) => boolean;

export function createTargetCheck(db: Db): TargetExists {
  const team = db.prepare(`SELECT 1 FROM teams WHERE id = ?`).pluck();
  const task = db.prepare(`SELECT 1 FROM tasks WHERE id = ?`).pluck();
  const agent = db
    .prepare(
      `SELECT 1 FROM agents WHERE id = @id OR gateway_id = @id
       UNION ALL
       SELECT 1 FROM settings WHERE key = @key AND json_valid(value)
         AND json_type(value, '$.agents.' || json_quote(@id)) IS NOT NULL
       LIMIT 1`,
    )
    .pluck();
  return (scope, id) => {
    if (scope === 'team') return team.get(id) === 1;
    if (scope === 'task') return task.get(id) === 1;
    return agent.get({ id, key: REGISTRY_KEY }) === 1;
  };
}
