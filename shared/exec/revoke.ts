// Revoking standing exec grants of one agent. The decision is made first on
// the stored document read-only (so a conflict writes nothing and needs no
// gateway), then again on the gateway's own copy (it may have changed), then
// the gateway writes, and its post-write reply must no longer list any of the
// dropped rows: otherwise `not-verified` (the write may have landed; re-read).
import type { Agent } from '../agents/types.ts';
import { readApprovalsDocument } from './allowlist-reader.ts';
import { gatewayBucketOf } from './allowlist-view.ts';
import { gatewayErrorCode, getApprovals, rawAgents, setApprovals, type GatewayCall } from './gateway-policy.ts';
import { entryKey } from './key.ts';
import { planRevoke } from './revoke-plan.ts';
import { AgentBucketSchema, type AllowlistEntry } from './schemas.ts';
import { messageOf } from '../errors.ts';

export type RevokeOutcome =
  | {
      outcome: 'revoked';
      agentId: string;
      gatewayAgentId: string;
      revokedKeys: string[];
      companionKeys: string[];
      absentKeys: string[];
      /** Rows left in the agent's bucket according to the gateway's post-write reply. */
      remaining: number;
    }
  | { outcome: 'already-absent'; keys: string[] }
  | { outcome: 'blocked-wildcard'; keys: string[] }
  | { outcome: 'no-such-agent' }
  | { outcome: 'not-applicable'; reason: 'not-gateway-runtime' | 'no-gateway-id' }
  | { outcome: 'unreadable'; reason: string; detail: string }
  /** The write may have landed but the reply still lists rows (`stillPresent`) or had no post-state. */
  | { outcome: 'not-verified'; stillPresent: string[]; reason: 'rows-still-listed' | 'no-post-state' }
  | { outcome: 'gateway-error'; code: string; message: string };

export interface RevokeDeps {
  stateDb: string;
  call: GatewayCall;
}

/**
 * A bucket's allowlist from the gateway's post-write reply: null when the
 * reply carries no agents map at all (no post-state); a reply whose map lacks
 * the bucket shows it empty.
 */
function replyRows(file: Record<string, unknown>, bucket: string): AllowlistEntry[] | null {
  if (file.agents === undefined) return null;
  const agents = rawAgents(file);
  if (!Object.hasOwn(agents, bucket)) return [];
  const r = AgentBucketSchema.safeParse(agents[bucket]);
  return r.success ? (r.data.allowlist ?? []) : null;
}

export async function revokeGrants(agent: Pick<Agent, 'id' | 'runtime' | 'gatewayId'>, keys: readonly string[], deps: RevokeDeps): Promise<RevokeOutcome> {
  const bucket = gatewayBucketOf(agent);
  if (bucket === 'not-gateway-runtime' || bucket === 'no-gateway-id') return { outcome: 'not-applicable', reason: bucket };

  const stored = readApprovalsDocument(deps.stateDb);
  if (stored.state === 'unreadable') return { outcome: 'unreadable', reason: stored.reason, detail: stored.detail };
  // No document on this machine: there is no bucket for this agent.
  if (stored.state === 'absent') return { outcome: 'no-such-agent' };
  const local = planRevoke(stored.agents, bucket, keys);
  if (local.outcome !== 'revoke') return local;

  let current;
  try {
    current = await getApprovals(deps.call);
  } catch (err) {
    return { outcome: 'gateway-error', code: gatewayErrorCode(err), message: messageOf(err) };
  }
  const parsedAgents = current.file.agents ?? {};
  const plan = planRevoke(parsedAgents, bucket, keys, local.companionKeys);
  if (plan.outcome !== 'revoke') return plan;

  // The parsed file keeps every field the gateway sent (loose schemas), so
  // writing it back changes only the dropped rows.
  const file = { ...current.file, agents: { ...parsedAgents, [bucket]: { ...parsedAgents[bucket], allowlist: plan.keep } } };
  const gone = new Set(plan.goneKeys);

  let after;
  try {
    after = await setApprovals(deps.call, file, current.hash);
  } catch (err) {
    return { outcome: 'gateway-error', code: gatewayErrorCode(err), message: messageOf(err) };
  }
  const rows = replyRows(after.file, bucket);
  if (rows === null) return { outcome: 'not-verified', stillPresent: [], reason: 'no-post-state' };
  const stillPresent = [...new Set(rows.map(entryKey).filter((k) => gone.has(k)))];
  if (stillPresent.length > 0) return { outcome: 'not-verified', stillPresent, reason: 'rows-still-listed' };
  return {
    outcome: 'revoked',
    agentId: agent.id,
    gatewayAgentId: bucket,
    revokedKeys: plan.revokedKeys,
    companionKeys: plan.companionKeys,
    absentKeys: plan.absentKeys,
    remaining: rows.length,
  };
}
