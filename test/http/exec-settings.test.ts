// Spec "Smaller resources", exec settings over inject(): the stored config,
// the execAsk map, validation, the not-applicable path for other runtimes and
// the 502 savedLocally answer when the gateway cannot take the policy. The
// gateway-accepts path is in test/gateway/exec-scenario.ts.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../helpers/app.ts';

async function setup(t: TestContext) {
  const ctx = await buildTestApp(t);
  for (const payload of [
    { id: 'gw-main', name: 'Main', runtime: 'gateway', gatewayId: 'main' },
    { id: 'gw-none', name: 'No gateway id', runtime: 'gateway', gatewayId: null },
    { id: 'cli', name: 'Cli', runtime: 'cli-a' },
  ]) {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/agents', payload });
    assert.equal(res.statusCode, 200, res.body);
  }
  const rows = () => JSON.stringify(ctx.runtime.deps.db.prepare('SELECT agent_id, config FROM exec_settings ORDER BY agent_id').all());
  return { ...ctx, rows };
}

async function post(app: FastifyInstance, payload: unknown) {
  const res = await app.inject({
    method: 'POST', url: '/api/exec-settings',
    ...(payload === undefined ? {} : { headers: { 'content-type': 'application/json' }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

const getJson = async (app: FastifyInstance, url: string) => {
  const res = await app.inject({ method: 'GET', url });
  return { status: res.statusCode, body: res.json() as unknown };
};

void test('Exec settings: GET needs agentId (400) and answers the stored config or null', async (t) => {
  const { app } = await setup(t);
  for (const url of ['/api/exec-settings', '/api/exec-settings?agentId=', '/api/exec-settings?agentId=%20']) {
    assert.deepEqual(await getJson(app, url), { status: 400, body: { error: 'agentId required' } }, url);
  }
  assert.deepEqual(await getJson(app, '/api/exec-settings?agentId=cli'), { status: 200, body: null });
  assert.equal((await post(app, { agentId: 'cli', values: { execAsk: 'sometimes', execSecurity: 'full' } })).status, 200);
  assert.deepEqual(await getJson(app, '/api/exec-settings?agentId=cli'), { status: 200, body: { execAsk: 'sometimes', execSecurity: 'full' } });
});

void test('Exec settings: GET /api/exec-settings/all maps agent id to execAsk, skipping rows without a string one', async (t) => {
  const { app } = await setup(t);
  assert.deepEqual(await getJson(app, '/api/exec-settings/all'), { status: 200, body: {} });
  await post(app, { agentId: 'cli', values: { execAsk: 'always' } });
  await post(app, { agentId: 'a-number', values: { execAsk: 3 } });
  await post(app, { agentId: 'security-only', values: { execSecurity: 'deny' } });
  await post(app, { agentId: 'gw-none', values: { execAsk: 'on-miss', execSecurity: 'allowlist' } });
  assert.deepEqual(await getJson(app, '/api/exec-settings/all'), { status: 200, body: { cli: 'always', 'gw-none': 'on-miss' } });
});

void test('Exec settings: POST is 400 for a non-object body or a missing agentId or values, and writes nothing', async (t) => {
  const { app, rows } = await setup(t);
  const before = rows();
  const cases: Array<[unknown, string]> = [
    [undefined, 'JSON object body required'],
    ['[]', 'JSON object body required'],
    ['"x"', 'JSON object body required'],
    ['null', 'JSON object body required'],
    ['{oops', 'JSON object body required'],
    [{ values: { execAsk: 'off' } }, 'agentId and values are required (values must be an object)'],
    [{ agentId: '', values: { execAsk: 'off' } }, 'agentId and values are required (values must be an object)'],
    [{ agentId: 9, values: { execAsk: 'off' } }, 'agentId and values are required (values must be an object)'],
    [{ agentId: 'cli' }, 'agentId and values are required (values must be an object)'],
    [{ agentId: 'cli', values: null }, 'agentId and values are required (values must be an object)'],
    [{ agentId: 'cli', values: ['off'] }, 'agentId and values are required (values must be an object)'],
    [{ agentId: 'cli', values: 'off' }, 'agentId and values are required (values must be an object)'],
  ];
  for (const [payload, error] of cases) {
    assert.deepEqual(await post(app, payload), { status: 400, body: { error } }, JSON.stringify(payload));
  }
  assert.equal(rows(), before);
});

void test('Exec settings: other runtimes store execAsk verbatim with gateway not-applicable; a later post merges', async (t) => {
  const { app } = await setup(t);
  for (const [agentId, values] of [
    ['cli', { execAsk: 'whenever I like', execSecurity: 'full' }],
    ['gw-none', { execAsk: 'bogus' }],
    ['not-an-agent-row', { execAsk: { nested: true } }],
  ] as const) {
    const r = await post(app, { agentId, values });
    assert.deepEqual(r, { status: 200, body: { ok: true, agentId, config: values, gateway: 'not-applicable' } }, agentId);
    assert.deepEqual((await getJson(app, `/api/exec-settings?agentId=${agentId}`)).body, values);
  }
  const merged = await post(app, { agentId: 'cli', values: { execSecurity: 'deny', other: 'ignored' } });
  assert.deepEqual(merged.body.config, { execAsk: 'whenever I like', execSecurity: 'deny' });
});

void test('Exec settings: a gateway agent\'s execAsk must be off, on-miss or always (400, nothing written)', async (t) => {
  const { app, rows } = await setup(t);
  const before = rows();
  for (const execAsk of ['sometimes', 'OFF', '', 1, null, undefined]) {
    const r = await post(app, { agentId: 'gw-main', values: { execAsk, execSecurity: 'full' } });
    assert.deepEqual(r, { status: 400, body: { error: 'execAsk must be off, on-miss or always for a gateway agent' } }, String(execAsk));
  }
  assert.equal(rows(), before);
  assert.deepEqual((await getJson(app, '/api/exec-settings?agentId=gw-main')).body, null);
});

void test('Exec settings: an unreachable gateway is 502 ok:false savedLocally:true and the value stays stored', async (t) => {
  const { app, logs } = await setup(t);
  const r = await post(app, { agentId: 'gw-main', values: { execAsk: 'always', execSecurity: 'allowlist' } });
  assert.equal(r.status, 502);
  assert.deepEqual({ ...r.body, error: undefined }, {
    error: undefined, ok: false, savedLocally: true, agentId: 'gw-main', config: { execAsk: 'always', execSecurity: 'allowlist' },
    gateway: 'unreachable', gatewayAgentId: 'main', code: 'UNAVAILABLE',
  });
  assert.match(String(r.body.error), /^the gateway is unreachable; the exec policy was not written: gateway not connected/);
  assert.deepEqual((await getJson(app, '/api/exec-settings?agentId=gw-main')).body, { execAsk: 'always', execSecurity: 'allowlist' });
  assert.deepEqual((await getJson(app, '/api/exec-settings/all')).body, { 'gw-main': 'always' });
  assert.ok(logs.some((l) => l.includes('exec settings saved locally')));
});
