// One agent's view of the exec approvals document, as GET /api/exec-allowlist
// shows it: its own bucket (`entries`, the only revocable rows) and the
// fleet-wide `*` bucket (`wildcard`), never merged. The socket token never
// reaches this layer (the reader drops it), and free-text command fields pass
// through the redactor because an approved command line can hold a secret.
import type { Agent } from '../agents/types.ts';
import { readApprovalsDocument, type DocumentCounts, type UnreadableReason } from './allowlist-reader.ts';
import { entryKey, isNodeMarker } from './key.ts';
import type { LastReadStore } from './last-read.ts';
import type { AllowlistEntry } from './schemas.ts';

export const WILDCARD_BUCKET = '*';

export interface AllowlistEntryView {
  key: string;
  id: string | null;
  pattern: string;
  argPattern: string | null;
  source: string | null;
  lastUsedAt: number | null;
  lastUsedCommand: string | null;
  lastResolvedPath: string | null;
  /** A gateway `=node-command:` companion row (revoked along with the rows minted with it). */
  nodeMarker: boolean;
}

export type AllowlistView =
  | {
      state: 'ok';
      agentId: string;
      gatewayAgentId: string;
      /** False when the document has no bucket for this agent (entries is then empty). */
      hasBucket: boolean;
      entries: AllowlistEntryView[];
      wildcard: AllowlistEntryView[];
      counts: DocumentCounts;
    }
  | { state: 'absent'; agentId: string; gatewayAgentId: string; reason: 'no-database' | 'no-table' | 'no-row' }
  | { state: 'not-applicable'; agentId: string; runtime: string; reason: 'not-gateway-runtime' | 'no-gateway-id' }
  | {
      state: 'unreadable';
      agentId: string;
      gatewayAgentId: string;
      reason: UnreadableReason;
      /** Document-wide counts from the last successful save; null when none is known. */
      counts: DocumentCounts | null;
      /** `gateway-row`: the gateway's own projection columns; `last-read`: svc's last successful read. */
      countsFrom: 'gateway-row' | 'last-read' | null;
    };

export interface AllowlistReadDeps {
  stateDb: string;
  lastRead: LastReadStore;
  redact: (s: string) => string;
  /** Told why a document was unreadable (the reason code and a value-free detail). */
  onUnreadable?: (info: { reason: UnreadableReason; detail: string }) => void;
}

/** The gateway agent id whose bucket an agent owns, or why it has none. */
export function gatewayBucketOf(agent: Pick<Agent, 'runtime' | 'gatewayId'>): string | 'not-gateway-runtime' | 'no-gateway-id' {
  if (agent.runtime !== 'gateway') return 'not-gateway-runtime';
  // "*" is the fleet-wide bucket, never one agent's own.
  return agent.gatewayId && agent.gatewayId !== WILDCARD_BUCKET ? agent.gatewayId : 'no-gateway-id';
}

export function viewEntry(entry: AllowlistEntry, redact: (s: string) => string): AllowlistEntryView {
  const text = (s: string | undefined) => (s === undefined ? null : redact(s));
  return {
    key: entryKey(entry),
    id: entry.id ?? null,
    pattern: redact(entry.pattern),
    argPattern: text(entry.argPattern),
    source: entry.source ?? null,
    lastUsedAt: entry.lastUsedAt ?? null,
    lastUsedCommand: text(entry.lastUsedCommand),
    lastResolvedPath: text(entry.lastResolvedPath),
    nodeMarker: isNodeMarker(entry),
  };
}

export function readAgentAllowlist(agent: Pick<Agent, 'id' | 'runtime' | 'gatewayId'>, deps: AllowlistReadDeps): AllowlistView {
  const bucket = gatewayBucketOf(agent);
  if (bucket === 'not-gateway-runtime' || bucket === 'no-gateway-id') {
    return { state: 'not-applicable', agentId: agent.id, runtime: agent.runtime, reason: bucket };
  }
  const read = readApprovalsDocument(deps.stateDb);
  const ids = { agentId: agent.id, gatewayAgentId: bucket };
  if (read.state === 'absent') return { state: 'absent', ...ids, reason: read.reason };
  if (read.state === 'unreadable') {
    deps.onUnreadable?.({ reason: read.reason, detail: read.detail });
    const remembered = read.rowCounts ? null : deps.lastRead.recall(deps.stateDb);
    return {
      state: 'unreadable',
      ...ids,
      reason: read.reason,
      counts: read.rowCounts ?? remembered,
      countsFrom: read.rowCounts ? 'gateway-row' : remembered ? 'last-read' : null,
    };
  }
  deps.lastRead.remember(deps.stateDb, read.counts);
  const own = Object.hasOwn(read.agents, bucket) ? read.agents[bucket] : undefined;
  const wildcard = read.agents[WILDCARD_BUCKET];
  return {
    state: 'ok',
    ...ids,
    hasBucket: own !== undefined,
    entries: (own?.allowlist ?? []).map((e) => viewEntry(e, deps.redact)),
    wildcard: (wildcard?.allowlist ?? []).map((e) => viewEntry(e, deps.redact)),
    counts: read.counts,
  };
}
