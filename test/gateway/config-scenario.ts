// Spec "System (host and gateway)": PATCH /api/system/gateway-config against
// the REAL gateway. Not a test file on its own: the real-gateway test calls
// gatewayConfigScenario() with a running svc and a connected gateway session.
// It proves that `agentModel` and `model` land in openclaw.json where
// OpenClaw 2026.9 reads them (agents.entries, agents.defaults.model) and that
// the running gateway hot-reloads them. It puts the default model back.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '../helpers/wait.ts';

export interface GatewayConfigScenarioContext {
  /** svc's base URL, e.g. http://127.0.0.1:18790 */
  svcBase: string;
  /** The gateway state dir svc is configured with (the same gateway `call` talks to). */
  gatewayStateDir: string;
  /** A request on a connected operator session of that gateway. */
  call: (method: string, params?: unknown) => Promise<unknown>;
}

const PICKUP_TIMEOUT_MS = 15_000;
const POLL_MS = 250;

// JSON.parse's own type: the scenario reads whatever shape the gateway's config has.
const readConfig = (stateDir: string) => JSON.parse(readFileSync(join(stateDir, 'openclaw.json'), 'utf8'));

async function patchConfig(ctx: GatewayConfigScenarioContext, body: unknown): Promise<unknown> {
  const res = await fetch(`${ctx.svcBase}/api/system/gateway-config`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json: unknown = await res.json();
  assert.equal(res.status, 200, JSON.stringify(json));
  return json;
}

/** The model ref agents.list reports for an agent (a string or `{ primary }`). */
async function agentModel(ctx: GatewayConfigScenarioContext, agentId: string): Promise<string | null> {
  const list = (await ctx.call('agents.list', {})) as { agents?: Array<{ id: string; model?: unknown }> };
  const model = list.agents?.find((a) => a.id === agentId)?.model;
  if (typeof model === 'string') return model;
  const primary = (model as { primary?: unknown } | undefined)?.primary;
  return typeof primary === 'string' ? primary : null;
}

/** Polls agents.list until the agent reports `expected` (the gateway picks a config change up on its own time). */
async function waitForAgentModel(ctx: GatewayConfigScenarioContext, agentId: string, expected: string): Promise<void> {
  await waitFor(async () => (await agentModel(ctx, agentId)) === expected, {
    what: `the gateway to pick up ${agentId} model ${expected}`,
    timeoutMs: PICKUP_TIMEOUT_MS,
    intervalMs: POLL_MS,
  });
}

export async function gatewayConfigScenario(ctx: GatewayConfigScenarioContext): Promise<void> {
  const agentId = 'main';
  const original = readConfig(ctx.gatewayStateDir);
  const originalDefault = original.agents?.defaults?.model?.primary as unknown;
  assert.equal(typeof originalDefault, 'string', 'the gateway under test has a default model');
  const provider = String(originalDefault).split('/')[0];
  const defaultRef = `${provider}/svc-scenario-default`;
  const agentRef = `${provider}/svc-scenario-agent`;

  // 1. A per-agent override and a new default, in one PATCH.
  const res = await patchConfig(ctx, { model: defaultRef, agentModel: { agentId, model: agentRef } });
  assert.deepEqual(res, { ok: true, hotReloadHint: true }, 'the gateway is reachable, so the hint is given');
  let onDisk = readConfig(ctx.gatewayStateDir);
  assert.equal(onDisk.agents.entries[agentId].model, agentRef, 'the override is in agents.entries.<id>.model');
  assert.equal(onDisk.agents.list, undefined, 'never the legacy agents.list');
  assert.equal(onDisk.agents.defaults.model.primary, defaultRef);
  assert.equal(onDisk.gateway.bind, 'loopback');
  await waitForAgentModel(ctx, agentId, agentRef);

  // 2. Removing the override prunes the entry; the agent falls back to the new default.
  await patchConfig(ctx, { agentModel: { agentId, model: null } });
  onDisk = readConfig(ctx.gatewayStateDir);
  assert.equal(onDisk.agents.entries?.[agentId], undefined, 'an entry left empty is pruned');
  await waitForAgentModel(ctx, agentId, defaultRef);

  // 3. Put the default model back and see the gateway follow.
  await patchConfig(ctx, { model: originalDefault });
  assert.equal(readConfig(ctx.gatewayStateDir).agents.defaults.model.primary, originalDefault);
  await waitForAgentModel(ctx, agentId, String(originalDefault));
}
