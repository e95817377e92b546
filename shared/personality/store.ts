// The agent_personalities table. A write ensures the agent row first (a
// placeholder named after its id, as cost records do) in the same
// transaction, so a personality never points at no agent.
import type { AgentStore } from '../agents/store.ts';
import type { Db } from '../db/open.ts';
import type { Tx } from '../db/tx.ts';
import type { Logger } from '../log.ts';
import type { Personality, PersonalityPostBody } from './schemas.ts';

export interface PersonalityStore {
  get(agentId: string): Personality;
  put(input: PersonalityPostBody): Personality;
}

const empty = (agentId: string): Personality => ({ agentId, values: null, customText: null, updatedAt: null });

export function createPersonalityStore(db: Db, tx: Tx, agents: AgentStore, logger: Logger, now: () => number = Date.now): PersonalityStore {
  const getStmt = db.prepare('SELECT trait_values AS traitValues, custom_text AS customText, updated_at AS updatedAt FROM agent_personalities WHERE agent_id = ?');
  const upsertStmt = db.prepare(
    `INSERT INTO agent_personalities (agent_id, trait_values, custom_text, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (agent_id) DO UPDATE SET trait_values = excluded.trait_values, custom_text = excluded.custom_text, updated_at = excluded.updated_at`,
  );
  return {
    get(agentId) {
      const row = getStmt.get(agentId) as { traitValues: string; customText: string | null; updatedAt: number } | undefined;
      if (!row) return empty(agentId);
      let values: unknown;
      try {
        values = JSON.parse(row.traitValues);
      } catch (err) {
        logger.warn({ err, agentId }, 'personality values unreadable; served as nulls');
        return empty(agentId);
      }
      if (typeof values !== 'object' || values === null || Array.isArray(values)) {
        logger.warn({ agentId }, 'personality values not an object; served as nulls');
        return empty(agentId);
      }
      return { agentId, values: values as Record<string, unknown>, customText: row.customText, updatedAt: row.updatedAt };
    },
    put({ agentId, values, customText }) {
      const t = now();
      tx.run(() => {
        agents.ensure(agentId);
        upsertStmt.run(agentId, JSON.stringify(values), customText, t);
      });
      return { agentId, values, customText, updatedAt: t };
    },
  };
}
