// POST /api/exec-settings in one function: the local row first, then, for a
// gateway-runtime agent with a gateway id, the gateway's policy (that agent's
// `ask`). execSecurity stays local. A refused or unreachable gateway leaves
// the posted value stored locally; the caller retries until it is accepted.
import type { Agent } from '../agents/types.ts';
import { gatewayBucketOf } from './allowlist-view.ts';
import { writeAgentAsk, type AskWrite, type GatewayCall } from './gateway-policy.ts';
import { ExecAskSchema } from './schemas.ts';
import type { ExecConfig, ExecSettingsStore } from './settings-store.ts';

export type SaveSettingsOutcome =
  | { kind: 'invalid-ask' }
  | { kind: 'saved'; config: ExecConfig; gateway: 'not-applicable' }
  | { kind: 'saved'; config: ExecConfig; gateway: 'accepted'; gatewayAgentId: string }
  | { kind: 'gateway-failed'; config: ExecConfig; gatewayAgentId: string; failure: Extract<AskWrite, { ok: false }> };

export async function saveExecSettings(
  agentId: string,
  agent: Pick<Agent, 'runtime' | 'gatewayId'> | null,
  values: Record<string, unknown>,
  deps: { store: ExecSettingsStore; call: GatewayCall },
): Promise<SaveSettingsOutcome> {
  const bucket = agent ? gatewayBucketOf(agent) : 'not-gateway-runtime';
  if (bucket === 'not-gateway-runtime' || bucket === 'no-gateway-id') {
    return { kind: 'saved', config: deps.store.save(agentId, values), gateway: 'not-applicable' };
  }
  const ask = ExecAskSchema.safeParse(values.execAsk);
  if (!ask.success) return { kind: 'invalid-ask' };
  const config = deps.store.save(agentId, values);
  const written = await writeAgentAsk(deps.call, bucket, ask.data);
  if (!written.ok) return { kind: 'gateway-failed', config, gatewayAgentId: bucket, failure: written };
  return { kind: 'saved', config, gateway: 'accepted', gatewayAgentId: bucket };
}
