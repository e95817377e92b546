// What a revoke would do to a document, decided without writing anything:
// all-or-nothing `blocked-wildcard` when any requested key also lives in the
// fleet-wide bucket, `no-such-agent` when the agent has no bucket,
// `already-absent` when none of the keys is in its bucket, else the rows to
// drop, including each dropped row's companion `=node-command:` marker (the
// gateway mints it in the same "Always" decision, and on its own it would keep
// the command approved on nodes).
import { WILDCARD_BUCKET } from './allowlist-view.ts';
import { entryKey, nodeMarkerPatterns } from './key.ts';
import type { AgentBucket, AllowlistEntry } from './schemas.ts';

export type RevokePlan =
  | { outcome: 'blocked-wildcard'; keys: string[] }
  | { outcome: 'no-such-agent' }
  | { outcome: 'already-absent'; keys: string[] }
  | {
      outcome: 'revoke';
      /** Requested keys found in the bucket. */
      revokedKeys: string[];
      /** Keys of companion node-marker rows dropped with them (not requested). */
      companionKeys: string[];
      /** Requested keys not in the bucket. */
      absentKeys: string[];
      /** The bucket's allowlist after the revoke. */
      keep: AllowlistEntry[];
      /** Every key that must be gone from the post-write document. */
      goneKeys: string[];
    };

/**
 * `alsoDrop`: companion keys found on an earlier plan over the raw stored
 * document, which still carries the command text that the gateway's
 * normalized copy may have dropped.
 */
export function planRevoke(
  agents: Record<string, AgentBucket>,
  bucketId: string,
  requested: readonly string[],
  alsoDrop: readonly string[] = [],
): RevokePlan {
  const keys = [...new Set(requested)];
  const wildcardKeys = new Set((agents[WILDCARD_BUCKET]?.allowlist ?? []).map(entryKey));
  const offenders = keys.filter((k) => wildcardKeys.has(k));
  if (offenders.length > 0) return { outcome: 'blocked-wildcard', keys: offenders };

  const bucket = Object.hasOwn(agents, bucketId) ? agents[bucketId] : undefined;
  if (!bucket) return { outcome: 'no-such-agent' };
  const rows = bucket.allowlist ?? [];
  const wanted = new Set(keys);
  const hit = rows.filter((e) => wanted.has(entryKey(e)));
  if (hit.length === 0) return { outcome: 'already-absent', keys };

  const markers = new Set(hit.flatMap(nodeMarkerPatterns));
  const extra = new Set(alsoDrop);
  const isCompanion = (e: AllowlistEntry) =>
    !wanted.has(entryKey(e)) && (extra.has(entryKey(e)) || (markers.has(e.pattern) && e.source === 'allow-always'));
  const companions = rows.filter(isCompanion);
  const present = new Set(hit.map(entryKey));
  const companionKeys = [...new Set(companions.map(entryKey))];
  return {
    outcome: 'revoke',
    revokedKeys: keys.filter((k) => present.has(k)),
    companionKeys,
    absentKeys: keys.filter((k) => !present.has(k)),
    keep: rows.filter((e) => !wanted.has(entryKey(e)) && !isCompanion(e)),
    goneKeys: [...present, ...companionKeys],
  };
}
