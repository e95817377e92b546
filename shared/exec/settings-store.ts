// The exec_settings table: one JSON config per agent id, `{ execAsk?,
// execSecurity? }`, stored verbatim (the spec leaves non-gateway values
// unvalidated). A post merges over the stored config, so a post that carries
// only execSecurity keeps the stored execAsk.
import { z } from 'zod';
import type { Db } from '../db/open.ts';

export const StoredConfigSchema = z.record(z.string(), z.unknown());
export type ExecConfig = z.infer<typeof StoredConfigSchema>;

export const CONFIG_FIELDS = ['execAsk', 'execSecurity'] as const;

export interface ExecSettingsStore {
  get(agentId: string): ExecConfig | null;
  /** Agent id to execAsk, for rows whose execAsk is a string. */
  askByAgent(): Record<string, string>;
  /** Merges the config fields present in `values` over the stored row; returns what is stored now. */
  save(agentId: string, values: Record<string, unknown>): ExecConfig;
}

function parseConfig(agentId: string, text: string): ExecConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Only svc writes this column; a value that does not parse is damage, answered as a 500.
    throw new Error(`stored exec settings for ${agentId} are not valid JSON`);
  }
  const r = StoredConfigSchema.safeParse(json);
  if (!r.success) throw new Error(`stored exec settings for ${agentId} are not an object`);
  return r.data;
}

export function createExecSettingsStore(db: Db, now: () => number = Date.now): ExecSettingsStore {
  const getStmt = db.prepare('SELECT config FROM exec_settings WHERE agent_id = ?').pluck();
  const allStmt = db.prepare('SELECT agent_id AS agentId, config FROM exec_settings ORDER BY agent_id');
  const upsert = db.prepare(
    `INSERT INTO exec_settings (agent_id, config, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (agent_id) DO UPDATE SET config = excluded.config, updated_at = excluded.updated_at`,
  );
  const get = (agentId: string) => {
    const text = getStmt.get(agentId) as string | undefined;
    return text === undefined ? null : parseConfig(agentId, text);
  };
  const save = db.transaction((agentId: string, values: Record<string, unknown>) => {
    const next: ExecConfig = { ...(get(agentId) ?? {}) };
    for (const field of CONFIG_FIELDS) if (values[field] !== undefined) next[field] = values[field];
    upsert.run(agentId, JSON.stringify(next), now());
    return next;
  });
  return {
    get,
    askByAgent() {
      const out: Record<string, string> = {};
      for (const row of allStmt.all() as Array<{ agentId: string; config: string }>) {
        const ask = parseConfig(row.agentId, row.config).execAsk;
        if (typeof ask === 'string') out[row.agentId] = ask;
      }
      return out;
    },
    save: (agentId, values) => save(agentId, values),
  };
}
