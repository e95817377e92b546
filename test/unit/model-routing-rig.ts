// The rig of the routing unit tests: the routing rule applied by the
// gateway reconciler (shared/gateway-wiring/reconcile.ts, routing only: no
// team, attach off) to a gateway state folder on disk, with svc's real
// SQLite tables for tokens, the registry, the token state and the ledger.
// The gateway is not running: the config is written as a file.
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentTokenStore } from '../../shared/agent-tokens/index.ts';
import { openDatabase } from '../../shared/db/open.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import { createRegistryStore } from '../../shared/model-routing/registry.ts';
import { noneFromDefault } from '../../shared/model-routing/from-default.ts';
import { createTokenStateStore } from '../../shared/model-routing/token-names.ts';
import type { RoutingDeps } from '../../shared/model-routing/sync.ts';
import { readGateway } from '../../shared/gateway-wiring/gateway-read.ts';
import { createLedgerStore } from '../../shared/gateway-wiring/ledger.ts';
import { reconcileOnce } from '../../shared/gateway-wiring/reconcile.ts';
import { parseDotenv } from '../../shared/settings/gateway-files.ts';

export const FAKE_KEY = 'sk-fake-upstream-0123456789';
export const OPENAI_KEY = 'sk-openai-test-abcdefghijklmnop';
export const PORT = 4555;

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- arbitrary config shapes

/** The gateway the rig's reconciler talks to; by default none is connected and the config is written as a file. */
export type RigGateway = { connected: () => boolean; call: (method: string, params: unknown) => Promise<unknown> };

export function rig(t: TestContext, files: { config: Json; env: string }, connected?: (stateDir: string) => RigGateway) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-model-routing-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const stateDir = join(dir, 'gateway');
  mkdirSync(stateDir);
  writeFileSync(join(stateDir, 'openclaw.json'), JSON.stringify(files.config, null, 2));
  writeFileSync(join(stateDir, '.env'), files.env);
  const db = openDatabase(join(dir, 'svc.db'));
  t.after(() => db.close());
  const vaultMap = new Map<string, string>();
  const vault = { get: (n: string) => vaultMap.get(n) ?? null, set: (n: string, v: string) => void vaultMap.set(n, v), delete: (n: string) => vaultMap.delete(n) };
  const log = { info: () => {}, warn: () => {} };
  const registry = createRegistryStore(createSettingsTable(db), vault, log);
  const agentTokens = createAgentTokenStore(db);
  const minted: string[] = [];
  let fromDefault = noneFromDefault();
  const gateway: RigGateway = connected?.(stateDir) ?? { connected: () => false, call: () => Promise.reject(new Error('not connected')) };
  const settings = createSettingsTable(db);
  const tokenStates = createTokenStateStore(settings, log);
  const deps: Omit<RoutingDeps, 'stateDir'> = {
    tokenStates,
    registry,
    vault,
    log,
    fromDefault: { read: () => fromDefault, write: (v) => void (fromDefault = v) },
    tokens: {
      mint: (agentId) => {
        minted.push(agentId);
        return agentTokens.mint('model', { agentId }).token;
      },
      verify: (agentId, token) => {
        const b = agentTokens.verify('model', token);
        return b && b.agentId === agentId ? b.id : null;
      },
      revokeToken: (token) => {
        const b = agentTokens.verify('model', token);
        if (b) agentTokens.revoke(b.id);
      },
    },
  };
  return {
    deps, vaultMap, registry, minted, agentTokens, stateDir, tokenStates, settings,
    writeConfig: (config: Json) => writeFileSync(join(stateDir, 'openclaw.json'), JSON.stringify(config)),
    config: (): Json => JSON.parse(readFileSync(join(stateDir, 'openclaw.json'), 'utf8')) as Json,
    envText: () => readFileSync(join(stateDir, '.env'), 'utf8'),
    env: () => parseDotenv(readFileSync(join(stateDir, '.env'), 'utf8')),
    sync: async (enabled = true) => {
      const read = await readGateway({ gateway, stateDir, local: () => true });
      const out = await reconcileOnce(
        {
          gateway, log, ledgers: createLedgerStore(settings, { error: () => {} }), routing: deps, vault, backupFallback: join(dir, 'before-svc.json'),
          bindings: { mint: () => assert.fail('no agent is on a team'), verify: () => null, revoke: () => {} },
        },
        read,
        { wiring: true, attach: false, routing: enabled, svcPort: PORT, allowAgents: new Map(), onTeams: [] },
      );
      out.cleanup();
      return { envPending: out.ledger.envPending, agents: out.routing?.agents ?? [], changed: { config: out.changed.config, env: out.changed.envNames, minted: out.routing?.minted ?? [] }, via: out.write.via };
    },
  };
}

export const fakeProvider = (apiKey: string) => ({
  baseUrl: 'http://127.0.0.1:9999/v1',
  apiKey,
  api: 'openai-completions',
  models: [{ id: 'svc-e2e-llm', name: 'Fake', cost: { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128000, maxTokens: 4096 }],
});

export const baseConfig = (providers: Json, entries: Json = {}, primary = 'fakellm/svc-e2e-llm'): Json => ({
  gateway: { mode: 'local', port: 18789, bind: 'loopback', auth: { mode: 'token', token: '${OPENCLAW_GATEWAY_TOKEN}' } },
  models: { mode: 'merge', providers },
  agents: { defaults: { model: { primary } }, entries },
  custom: { kept: true },
});


export const ANT_KEY = 'sk-ant-fake-upstream-abcdef012345';

/** A second custom upstream, on another API and origin than fakeProvider's. */
export const fakeAnthropicProvider = () => ({
  baseUrl: 'http://127.0.0.1:9998',
  apiKey: '${FAKEANT_API_KEY}',
  api: 'anthropic-messages',
  models: [{ id: 'claude-fake', name: 'Claude Fake', cost: { input: 1, output: 5, cacheRead: 0, cacheWrite: 0 }, contextWindow: 200000, maxTokens: 4096 }],
});

export const ENV_ALL = `OPENCLAW_GATEWAY_TOKEN=gw\nFAKELLM_API_KEY=${FAKE_KEY}\nFAKEANT_API_KEY=${ANT_KEY}\nOPENAI_API_KEY=${OPENAI_KEY}\n`;
/** fakellm (the primary's upstream) and fakeant (another API and origin), each with its key in .env (ENV_ALL). */
export const twoUpstreams = (entries: Json = {}) => baseConfig({ fakellm: fakeProvider('${FAKELLM_API_KEY}'), fakeant: fakeAnthropicProvider() }, entries);

export type RigSync = Awaited<ReturnType<ReturnType<typeof rig>['sync']>>;
/** An agent's fallback or sub-agent model routes as [ref, routedRef, reason] rows. */
export const routeRows = (out: RigSync, id: string, which: 'fallbacks' | 'subagentModel') =>
  out.agents.find((a) => a.agentId === id)?.[which].map((f) => [f.ref, f.routedRef, f.reason]);
