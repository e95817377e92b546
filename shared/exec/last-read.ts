// svc's memory of the last successful read of a gateway's exec approvals
// document: the document-wide counts an `unreadable` answer falls back on when
// the gateway's own row cannot be read at all.
import type { Db } from '../db/open.ts';
import type { DocumentCounts } from './allowlist-reader.ts';

export interface LastReadStore {
  remember(gatewayDb: string, counts: DocumentCounts): void;
  recall(gatewayDb: string): DocumentCounts | null;
}

export function createLastReadStore(db: Db, now: () => number = Date.now): LastReadStore {
  const upsert = db.prepare(
    `INSERT INTO exec_allowlist_last_read (gateway_db, agent_count, allowlist_count, saved_at_ms, read_at)
     VALUES (@db, @agents, @entries, @savedAtMs, @now)
     ON CONFLICT (gateway_db) DO UPDATE SET agent_count = excluded.agent_count,
       allowlist_count = excluded.allowlist_count, saved_at_ms = excluded.saved_at_ms, read_at = excluded.read_at`,
  );
  const select = db.prepare(
    `SELECT agent_count AS agents, allowlist_count AS entries, saved_at_ms AS savedAtMs
     FROM exec_allowlist_last_read WHERE gateway_db = ?`,
  );
  return {
    remember: (gatewayDb, c) => void upsert.run({ db: gatewayDb, ...c, now: now() }),
    recall: (gatewayDb) => (select.get(gatewayDb) as DocumentCounts | undefined) ?? null,
  };
}
