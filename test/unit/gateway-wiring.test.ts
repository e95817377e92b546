// Issue 30 items 1 and 2: the gateway reconciler's parts as plain functions
// over a config (the attach part's entries and deny lists, the names the
// gateway's tool names keep, the steps a large removal is cut into), and one
// whole round on a gateway state folder on disk with svc's real SQLite
// tables: attach and roster on, then off, which leaves openclaw.json as it
// was. The live config.patch path is the e2e's (test/gateway/own-gateway.test.ts).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentTokenStore } from '../../shared/agent-tokens/index.ts';
import { openDatabase } from '../../shared/db/open.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import { planAttach, type AttachTarget, type Binding } from '../../shared/gateway-wiring/attach.ts';
import { agentPart, denyPattern, entryName } from '../../shared/gateway-wiring/attach-names.ts';
import { applyOps, KEEP_SHARE, stepsBySize } from '../../shared/gateway-wiring/config-ops.ts';
import { readGateway } from '../../shared/gateway-wiring/gateway-read.ts';
import { createLedgerStore, emptyLedger } from '../../shared/gateway-wiring/ledger.ts';
import { reconcileOnce, type DesiredState, type ReconcileDeps } from '../../shared/gateway-wiring/reconcile.ts';
import { wiringView } from '../../shared/gateway-wiring/view.ts';
import { createRegistryStore } from '../../shared/model-routing/registry.ts';
import { noneFromDefault } from '../../shared/model-routing/from-default.ts';
import { parseDotenv } from '../../shared/settings/gateway-files.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- arbitrary config shapes

const SERVERS = ['tasks', 'memory', 'tools', 'teamchat'] as const;
const binding = (t: AttachTarget): Binding => ({ agent: t.gatewayId, svcAgentId: t.svcAgentId, teamId: t.teamId, envName: `SVC_MCP_BINDING_${t.gatewayId.toUpperCase()}_X`, tokenId: `tok-${t.gatewayId}` });
const target = (id: string): AttachTarget => ({ gatewayId: id, svcAgentId: id, teamId: 't1' });

void test('Issue 30 #2: entry names pass through the gateway\'s tool-name rules unchanged (lowercase, [a-z0-9_-], at most 30 characters) and stay apart', () => {
  for (const id of ['main', 'bob', 'A Very Long Agent Identifier Indeed', 'Bob', 'bob.smith', '__proto__']) {
    for (const server of SERVERS) {
      const name = entryName(id, server);
      assert.match(name, /^svc-[a-z0-9_-]+$/);
      assert.ok(name.length <= 30, `${name} is ${name.length} characters`);
    }
  }
  assert.equal(entryName('bob', 'tasks'), 'svc-bob-tasks');
  assert.notEqual(agentPart('Bob'), agentPart('bob'), 'ids that differ only in case get different names');
  assert.notEqual(agentPart('bob.smith'), agentPart('bob-smith'));
});

void test('Issue 30 #2: each agent on a team gets svc\'s four entries with its own binding; every gateway agent denies the others\' entries; a person\'s patterns, entries and odd deny shapes are kept', () => {
  const config: Json = {
    mcp: { servers: { 'user-notes': { url: 'http://127.0.0.1:9/mcp' }, 'svc-bob-memory': { url: 'theirs' } } },
    agents: { entries: { bob: { tools: { deny: ['browser'] } }, odd: { tools: { deny: 'exec' } } } },
  };
  const plan = planAttach({ config, targets: [target('main'), target('bob')], gatewayAgents: ['main', 'bob', 'dee', 'odd'], baseUrl: 'http://127.0.0.1:4555', ledger: emptyLedger(), bindingFor: binding });
  const after = structuredClone(config);
  applyOps(after, plan.ops);
  assert.deepEqual(after.mcp.servers['user-notes'], config.mcp.servers['user-notes']);
  assert.equal(after.mcp.servers['svc-bob-memory'].url, 'theirs', 'an entry of that name that svc did not write is left alone');
  assert.deepEqual(after.mcp.servers['svc-main-tasks'], {
    transport: 'streamable-http',
    url: 'http://127.0.0.1:4555/api/mcp/tasks',
    headers: { 'X-Svc-Mcp-Binding': '${SVC_MCP_BINDING_MAIN_X}' },
  });
  assert.deepEqual(plan.servers.map((s) => s.name).sort(), ['svc-bob-tasks', 'svc-bob-tools', 'svc-bob-teamchat', ...SERVERS.map((s) => `svc-main-${s}`)].sort());
  const mainOwn = SERVERS.map((s) => denyPattern(entryName('main', s)));
  const bobOwn = ['svc-bob-tasks', 'svc-bob-tools', 'svc-bob-teamchat'].map(denyPattern);
  assert.deepEqual(after.agents.entries.bob.tools.deny, ['browser', ...mainOwn], 'Bob keeps his own pattern and denies main\'s entries');
  assert.deepEqual([...after.agents.entries.main.tools.deny].sort(), [...bobOwn].sort());
  assert.deepEqual([...after.agents.entries.dee.tools.deny].sort(), [...mainOwn, ...bobOwn].sort(), 'an agent on no team denies every svc entry');
  assert.equal(after.agents.entries.odd.tools.deny, 'exec', 'a deny that is not a list is not svc\'s to change');
  assert.deepEqual(plan.deny.find((d) => d.agent === 'bob'), { agent: 'bob', patterns: mainOwn, created: false });

  // A second plan over its own result changes nothing.
  const ledger = { ...emptyLedger(), servers: plan.servers, deny: plan.deny, bindings: plan.bindings };
  assert.deepEqual(planAttach({ config: after, targets: [target('main'), target('bob')], gatewayAgents: ['main', 'bob', 'dee', 'odd'], baseUrl: 'http://127.0.0.1:4555', ledger, bindingFor: binding }).ops, []);

  // Nothing to attach: svc's entries and patterns go, the person's stay.
  const off = planAttach({ config: after, targets: null, gatewayAgents: ['main', 'bob', 'dee', 'odd'], baseUrl: 'http://127.0.0.1:4555', ledger, bindingFor: binding });
  applyOps(after, off.ops);
  assert.deepEqual(Object.keys(after.mcp.servers).sort(), ['svc-bob-memory', 'user-notes']);
  assert.deepEqual(after.agents.entries.bob.tools.deny, ['browser']);
  assert.equal(after.agents.entries.main.tools.deny, undefined, 'a list svc created is removed');
  assert.deepEqual([off.servers, off.deny, off.bindings], [[], [], []]);
});

void test('Issue 30 #2: a removal that would leave the config under half its size is cut into steps the gateway accepts', () => {
  const big = (i: number) => ({ transport: 'streamable-http', url: `http://127.0.0.1:4555/api/mcp/tasks?padding=${'x'.repeat(200)}${i}` });
  const config: Json = { keep: { small: true }, mcp: { servers: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`svc-a${i}-tasks`, big(i)])) } };
  const ops = Object.keys(config.mcp.servers).map((name) => ({ path: ['mcp', 'servers', name], value: undefined }));
  const steps = stepsBySize(config, ops);
  assert.ok(steps.length > 1, `${steps.length} steps`);
  assert.deepEqual(steps.flat(), ops, 'every op, in order');
  const current = structuredClone(config);
  for (const step of steps) {
    const before = JSON.stringify(current, null, 2).length;
    applyOps(current, step);
    assert.ok(JSON.stringify(current, null, 2).length >= KEEP_SHARE * before - 300, 'each step keeps most of the config');
  }
  assert.deepEqual(stepsBySize(config, ops.slice(0, 1)), [ops.slice(0, 1)], 'a small change is one step');
  assert.deepEqual(stepsBySize(config, []), []);
});

function rig(t: TestContext, config: Json, env: string) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-gateway-wiring-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const stateDir = join(dir, 'gateway');
  mkdirSync(stateDir);
  writeFileSync(join(stateDir, 'openclaw.json'), JSON.stringify(config, null, 2));
  writeFileSync(join(stateDir, '.env'), env);
  const db = openDatabase(join(dir, 'svc.db'));
  t.after(() => db.close());
  const settings = createSettingsTable(db);
  const vaultMap = new Map<string, string>();
  const vault = { get: (n: string) => vaultMap.get(n) ?? null, set: (n: string, v: string) => void vaultMap.set(n, v), delete: (n: string) => vaultMap.delete(n) };
  const log = { info: () => {}, warn: () => {}, error: () => {} };
  const tokens = createAgentTokenStore(db);
  const gateway = { connected: () => false, call: () => Promise.reject(new Error('not connected')) };
  let fromDefault = noneFromDefault();
  const deps: ReconcileDeps = {
    gateway, log, vault, ledgers: createLedgerStore(settings, log), backupFallback: join(dir, 'copy.json'),
    routing: {
      registry: createRegistryStore(settings, vault, log), vault, log,
      fromDefault: { read: () => fromDefault, write: (v) => void (fromDefault = v) },
      tokens: { mint: (a) => tokens.mint('model', { agentId: a }).token, verify: () => null, revokeToken: () => {} },
    },
    bindings: {
      mint: (tg) => {
        const m = tokens.mint('mcp', { agentId: tg.svcAgentId });
        return { token: m.token, id: m.binding.id };
      },
      verify: (agentId, token) => {
        const b = tokens.verify('mcp', token);
        return b && b.agentId === agentId ? b.id : null;
      },
      revoke: (id) => void tokens.revoke(id),
    },
  };
  const round = async (want: Partial<DesiredState>) => {
    const read = await readGateway({ gateway, stateDir, local: () => true });
    const out = await reconcileOnce(deps, read, { wiring: true, attach: true, routing: false, svcPort: 4555, allowAgents: new Map(), onTeams: [], ...want });
    out.cleanup();
    return out;
  };
  return {
    round, tokens, vaultMap,
    config: () => JSON.parse(readFileSync(join(stateDir, 'openclaw.json'), 'utf8')) as Json,
    env: () => parseDotenv(readFileSync(join(stateDir, '.env'), 'utf8')),
    copy: () => JSON.parse(readFileSync(join(stateDir, 'openclaw.json.before-svc'), 'utf8')) as Json,
  };
}

void test('Issue 30 #1 and #2: a round writes the bindings to .env and the entries to the config, keeps a copy from before, changes nothing the second time; the wiring off leaves openclaw.json and .env as they were', async (t) => {
  const original: Json = {
    gateway: { mode: 'local', port: 18789, bind: 'loopback' },
    agents: { defaults: { model: { primary: 'p/m' } }, entries: { bob: { workspace: '/w/bob', tools: { deny: ['browser'] } } } },
    mcp: { servers: { mine: { url: 'http://127.0.0.1:9/mcp' } } },
  };
  const env = 'OPENCLAW_GATEWAY_TOKEN=gw\nOTHER=1\n';
  const r = rig(t, original, env);
  const want = { onTeams: [target('main'), target('bob')], allowAgents: new Map([['main', ['bob']], ['bob', []]]) };
  const first = await r.round(want);
  assert.equal(first.write.via, 'file');
  assert.deepEqual(first.write.mismatches, []);
  assert.deepEqual(r.copy(), original, 'the copy holds the config from before');
  const config = r.config();
  const ref = /^\$\{(.+)\}$/.exec(config.mcp.servers['svc-main-tasks'].headers['X-Svc-Mcp-Binding'] as string)?.[1] as string;
  const token = r.env()[ref] as string;
  assert.equal(r.tokens.verify('mcp', token)?.agentId, 'main', 'the .env holds a binding of main');
  assert.equal(r.vaultMap.get(ref), token, 'svc keeps it in its vault');
  assert.deepEqual(config.agents.entries.bob.subagents, { allowAgents: [] });
  assert.deepEqual(config.mcp.servers.mine, original.mcp.servers.mine);

  const second = await r.round(want);
  assert.deepEqual([second.changed.config, second.changed.envNames], [0, []]);

  // Bob leaves every team: his entries, patterns and binding go; his token is revoked.
  const bobRef = /^\$\{(.+)\}$/.exec(config.mcp.servers['svc-bob-tasks'].headers['X-Svc-Mcp-Binding'] as string)?.[1] as string;
  const bobToken = r.env()[bobRef] as string;
  await r.round({ onTeams: [target('main')], allowAgents: new Map([['main', []], ['bob', []]]) });
  assert.equal(r.config().mcp.servers['svc-bob-tasks'], undefined);
  assert.equal(r.env()[bobRef], undefined);
  assert.equal(r.tokens.verify('mcp', bobToken), null);

  const off = await r.round({ wiring: false });
  assert.deepEqual(off.ledger.servers, []);
  assert.deepEqual(r.config(), original, 'openclaw.json is as it was, to the key');
  assert.deepEqual(r.env(), parseDotenv(env));
  assert.equal(r.tokens.verify('mcp', token), null, 'the binding no longer opens svc\'s MCP servers');
});

void test('Issue 30 #2: the per-agent view says why an agent is not attached, routed or metered, and what to do about it', () => {
  const base = {
    settings: { enabled: true, attach: true, routing: true },
    connected: true,
    configPath: '/g/openclaw.json',
    filesReachable: true,
    gatewayAgents: ['main', 'bob', 'dee'],
    want: { wiring: true, attach: true, routing: true, svcPort: 4555, allowAgents: new Map(), onTeams: [target('main'), target('bob')] },
    ledger: { ...emptyLedger(), servers: SERVERS.map((s) => ({ name: entryName('main', s), agent: 'main' })) },
    last: { at: '2026-11-28T00:00:00.000Z', reason: 'x', ok: true, error: null, via: 'gateway' as const, changed: { config: 0, env: [] }, mismatches: [], parts: { attach: null, routing: null }, noGateway: false },
    routes: [
      { agentId: 'main', routed: true, reason: null, provider: 'svc-main', upstream: 'p', model: 'm' },
      { agentId: 'bob', routed: false, reason: 'oauth' as const, provider: 'openai-codex', upstream: 'openai-codex', model: 'm' },
      { agentId: 'dee', routed: false, reason: 'no-upstream' as const, provider: null, upstream: null, model: null },
    ],
    known: new Map([['main', { id: 'main', name: 'Main' }]]),
  };
  const row = (v: ReturnType<typeof wiringView>, id: string) => v.agents.find((a) => a.gatewayId === id);
  const v = wiringView(base);
  assert.deepEqual([row(v, 'main')?.attached.ok, row(v, 'main')?.routed.ok, row(v, 'main')?.metered.how, row(v, 'main')?.name], [true, true, 'before-each-call', 'Main']);
  assert.equal(row(v, 'bob')?.attached.reason, 'not attached yet');
  assert.match(String(row(v, 'bob')?.routed.reason), /OAuth login/);
  assert.deepEqual([row(v, 'bob')?.metered.ok, row(v, 'bob')?.metered.how], [true, 'after-each-call'], 'a team agent off svc\'s endpoint is metered after each call');
  assert.deepEqual([row(v, 'dee')?.attached.reason, row(v, 'dee')?.metered.ok], ["not on one of svc's teams", false]);
  assert.ok(row(v, 'dee')?.metered.fix);
  assert.deepEqual(v.owned, { servers: 4, lists: 0, denyLists: 0, envNames: 0 });

  const failed = wiringView({ ...base, ledger: emptyLedger(), last: { ...base.last, ok: false, error: 'Config is externally managed' } });
  assert.deepEqual([row(failed, 'main')?.attached.ok, row(failed, 'main')?.attached.reason], [false, 'Config is externally managed']);
  const off = wiringView({ ...base, settings: { ...base.settings, enabled: false } });
  assert.equal(row(off, 'bob')?.attached.reason, "svc's wiring of the gateway is off");
  const none = wiringView({ ...base, connected: false, last: { ...base.last, noGateway: true } });
  assert.deepEqual([row(none, 'bob')?.attached.reason, row(none, 'main')?.routed.ok], ['no gateway to wire yet', true]);
});
