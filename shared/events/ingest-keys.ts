// Idempotency keys of POST /api/obs/ingest (issue 15 #17): a client that did
// not get an answer may send the same batch again with the same
// `Idempotency-Key`; within 24 h it is answered with the first answer and
// nothing is stored twice. The key is written in the same transaction as the
// batch's rows (migration 11), so a key exists exactly when its rows do.
import { createHash } from 'node:crypto';
import type { Db } from '../db/open.ts';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** How long a key is remembered; older keys are pruned on the next keyed write. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60_000;
export const IDEMPOTENCY_KEY_MAX = 200;

export const IDEMPOTENCY_MESSAGES = {
  badKey: `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters`,
  reused: 'Idempotency-Key was already used for a different batch (keys are kept 24 hours)',
} as const;

// Printable ASCII, space included (Node trims a header value's ends).
const KEY_RE = new RegExp(`^[\\x20-\\x7e]{1,${IDEMPOTENCY_KEY_MAX}}$`);

/**
 * The key of a request: undefined when the header is absent, null when it is
 * present but not a valid key (empty, too long, a control or non-ASCII
 * character). A header sent twice arrives joined with ", " and is one key.
 */
export function idempotencyKeyOf(header: string | string[] | undefined): string | null | undefined {
  if (header === undefined) return undefined;
  return typeof header === 'string' && KEY_RE.test(header) ? header : null;
}

export const bodyDigest = (body: Uint8Array): string => createHash('sha256').update(body).digest('hex');

export interface IngestKeys {
  /** The first answer for this key, if it is younger than 24 h. Call inside the batch's transaction. */
  find(key: string, now: number): { digest: string; count: number } | null;
  /** Records a key with its answer, and prunes keys older than 24 h. Call inside the batch's transaction. */
  record(key: string, digest: string, count: number, now: number): void;
}

export function createIngestKeys(db: Db): IngestKeys {
  const find = db.prepare('SELECT body_sha256 AS digest, count FROM ingest_keys WHERE key = ? AND created_at >= ?');
  const prune = db.prepare('DELETE FROM ingest_keys WHERE created_at < ?');
  const insert = db.prepare('INSERT OR REPLACE INTO ingest_keys (key, body_sha256, count, created_at) VALUES (?, ?, ?, ?)');
  return {
    find: (key, now) => (find.get(key, now - IDEMPOTENCY_KEY_TTL_MS) as { digest: string; count: number } | undefined) ?? null,
    record(key, digest, count, now) {
      prune.run(now - IDEMPOTENCY_KEY_TTL_MS);
      insert.run(key, digest, count, now);
    },
  };
}
