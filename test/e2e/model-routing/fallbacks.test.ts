// Issue 22 item 2, fallbacks, on real sockets: svc started as a child on a
// temporary home with a stopped gateway's files (svc writes openclaw.json and
// .env itself when no gateway is connected), a fake OpenAI model behind the
// recording pass-through and a fake Anthropic provider. The agent's
// fallbacks come from the gateway's defaults. The test calls svc exactly as
// the gateway would after the sync: the base URL and the token the files now
// give the agent's fallback entries, the path the gateway appends.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDotenv } from '../../../shared/settings/gateway-files.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../../helpers/fake-anthropic.ts';
import { startFakeModel, type FakeModel } from '../../helpers/fake-model.ts';
import { startServer, tempHome, type RunningServer } from '../../helpers/server.ts';
import { call } from '../../helpers/team-chat-api.ts';
import { waitFor } from '../../helpers/wait.ts';
import { startRecorder, type Recorder } from '../../helpers/recording-upstream.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API bodies and config shapes

const LLM_KEY = 'sk-fake-llm-fallback-0123456789';
const ANT_KEY = 'sk-ant-fake-fallback-abcdef0123';
const REFUSAL = /svc stopped this call: the agent main budget reached its cap/;

let model: FakeModel | undefined;
let recorder: Recorder | undefined;
let anthropic: FakeAnthropic | undefined;
let svc: RunningServer | undefined;
let home = '';
let stateDir = '';

before(async () => {
  model = await startFakeModel();
  recorder = await startRecorder(model.url);
  anthropic = await startFakeAnthropic();
  home = tempHome('svc-fallbacks-e2e-');
  stateDir = join(home, 'gateway-state');
  mkdirSync(stateDir, { recursive: true });
  const entry = (id: string, cost: Json) => ({ id, name: id, reasoning: false, input: ['text'], cost: { cacheRead: 0, cacheWrite: 0, ...cost }, contextWindow: 128000, maxTokens: 4096 });
  writeFileSync(
    join(stateDir, 'openclaw.json'),
    JSON.stringify({
      models: {
        providers: {
          fakellm: { baseUrl: recorder.url, apiKey: '${FAKELLM_API_KEY}', api: 'openai-completions', models: [entry('fake-main', { input: 1, output: 2 }), entry('fake-mini', { input: 1, output: 2 })] },
          // A price that makes any call pass a one-cent cap: the cap test's refusal is svc's, not an unknown price's.
          fakeant: { baseUrl: anthropic.url, apiKey: '${FAKEANT_API_KEY}', api: 'anthropic-messages', models: [entry('claude-fake', { input: 1_000_000, output: 1_000_000 })] },
        },
      },
      agents: { defaults: { model: { primary: 'fakellm/fake-main', fallbacks: ['fakellm/fake-mini', 'fakeant/claude-fake', 'openai-codex/gpt-5.5'] } } },
    }),
  );
  writeFileSync(join(stateDir, '.env'), `FAKELLM_API_KEY=${LLM_KEY}\nFAKEANT_API_KEY=${ANT_KEY}\n`);
  svc = await startServer({ home, timeoutMs: 120_000 });
  const sync = await api('POST', '/api/system/model-routing/sync');
  assert.equal(sync.status, 200, JSON.stringify(sync.body));
  assert.equal(sync.body.lastSync?.ok, true, JSON.stringify(sync.body.lastSync));
});

after(async () => {
  await svc?.stop();
  await recorder?.close();
  await model?.close();
  await anthropic?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

const base = () => (svc as RunningServer).base;
const api = (method: string, path: string, body?: unknown) => call<Json>(base(), method, path, body);
const gatewayConfig = (): Json => JSON.parse(readFileSync(join(stateDir, 'openclaw.json'), 'utf8')) as Json;
const gatewayEnv = () => parseDotenv(readFileSync(join(stateDir, '.env'), 'utf8'));
/** What the gateway sends for a provider entry of the routed config: its base URL plus the API's path, its apiKey variable resolved from .env. */
function asGateway(providerId: string, apiPath: string, body: Json): Promise<Response> {
  const provider = gatewayConfig().models.providers[providerId] as Json;
  const token = gatewayEnv()[/^\$\{(.+)\}$/.exec(provider.apiKey as string)?.[1] ?? ''] as string;
  const auth: Record<string, string> = provider.api === 'anthropic-messages' ? { 'x-api-key': token } : { authorization: `Bearer ${token}` };
  return fetch(`${provider.baseUrl as string}${apiPath}`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify(body) });
}
const messagesBody = (prompt: string, m = 'claude-fake') => ({ model: m, max_tokens: 64, messages: [{ role: 'user', content: prompt }] });
const completionsBody = (prompt: string, m: string) => ({ model: m, max_tokens: 64, messages: [{ role: 'user', content: prompt }] });
const doneCalls = async (): Promise<Json[]> => ((await api('GET', '/api/model-calls?agentId=main')).body.calls as Json[]).filter((c) => c.outcome !== 'open');

void test("Budgets (issue 22, item 2): the defaults' fallbacks become main's own through svc; the one svc cannot route is left as it is and the view says why", async () => {
  const config = gatewayConfig();
  assert.deepEqual(config.agents.entries.main.model, { primary: 'svc-main/fake-main', fallbacks: ['svc-main/fake-mini', 'svc-main~fakeant/claude-fake', 'openai-codex/gpt-5.5'] });
  assert.equal(config.models.providers['svc-main~fakeant'].baseUrl, `${base()}/model/main/via/fakeant/v1`);
  assert.equal(config.models.providers['svc-main~fakeant'].api, 'anthropic-messages');
  const files = readFileSync(join(stateDir, 'openclaw.json'), 'utf8') + readFileSync(join(stateDir, '.env'), 'utf8');
  assert.ok(!files.includes(LLM_KEY) && !files.includes(ANT_KEY), "the gateway's files hold no provider key");
  const view = (await api('GET', '/api/system/model-routing')).body;
  const main = (view.agents as Json[]).find((a) => a.agentId === 'main') as Json;
  assert.deepEqual(main.fallbacks.map((f: Json) => [f.ref, f.routed, f.reason]), [
    ['fakellm/fake-mini', true, null],
    ['fakeant/claude-fake', true, null],
    ['openai-codex/gpt-5.5', false, 'oauth'],
  ]);
});

void test('Budgets (issue 22, item 2): a fallback on another upstream is forwarded on its via-path with that upstream\'s key, recorded as the agent\'s call', async () => {
  const fake = anthropic as FakeAnthropic;
  const res = await asGateway('svc-main~fakeant', '/messages', messagesBody('hello fallback'));
  const text = await res.text();
  assert.equal(res.status, 200, text);
  assert.match(text, /ECHO: hello fallback/);
  assert.equal(fake.requests.length, 1);
  const sent = fake.requests[0] as (typeof fake.requests)[number];
  assert.deepEqual([sent.path, sent.headers['x-api-key'], sent.headers.authorization], ['/v1/messages', ANT_KEY, undefined]);
  const calls = await waitFor(async () => {
    const done = await doneCalls();
    return done.length === 1 ? done : undefined;
  }, { what: "the fallback call's model_calls row" });
  assert.deepEqual(calls.map((c) => [c.agentId, c.provider, c.api, c.model, c.outcome]), [['main', 'fakeant', 'anthropic-messages', 'claude-fake', 'ok']]);
});

void test("Budgets (issue 22, item 2): a fallback on the primary's upstream is forwarded on the agent's own path with the upstream's key", async () => {
  const seen = (recorder as Recorder).seen.length;
  const res = await asGateway('svc-main', '/chat/completions', completionsBody('hello mini', 'fake-mini'));
  assert.equal(res.status, 200, await res.clone().text());
  assert.match(await res.text(), /ECHO: hello mini/);
  const sent = (recorder as Recorder).seen.slice(seen);
  assert.deepEqual(sent.map((r) => [r.path, r.headers.authorization]), [['/v1/chat/completions', `Bearer ${LLM_KEY}`]]);
  assert.equal((model as FakeModel).requests.at(-1)?.model, 'fake-mini');
});

void test('Budgets (issue 22, item 2): the via-path forwards only an upstream the agent lists, and only its models there', async () => {
  const fake = anthropic as FakeAnthropic;
  const before = fake.requests.length;
  const token = gatewayEnv().SVC_MODEL_TOKEN_MAIN as string;
  const post = (path: string, body: Json) =>
    fetch(`${base()}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });

  const unlisted = await post('/model/main/via/openai/v1/chat/completions', completionsBody('x', 'gpt-5-mini'));
  assert.equal(unlisted.status, 404);
  assert.equal(((await unlisted.json()) as Json).error.message, 'agent main is not routed through svc to upstream openai');
  // The primary's upstream is the agent's own path, not a via-path.
  assert.equal((await post('/model/main/via/fakellm/v1/chat/completions', completionsBody('x', 'fake-mini'))).status, 404);

  const otherModel = await post('/model/main/via/fakeant/v1/messages', messagesBody('x', 'fake-mini'));
  assert.equal(otherModel.status, 400);
  assert.match(((await otherModel.json()) as Json).error.message, /model fake-mini is not one of agent main's models \(claude-fake\)/);
  assert.equal(fake.requests.length, before, 'no refused call reached the provider');
});

void test("Budgets (issue 22, item 3): a cap on the agent holds its fallback too: the via-path call is refused before the provider", async () => {
  const fake = anthropic as FakeAnthropic;
  const before = fake.requests.length;
  const created = await api('POST', '/api/governance/budgets', { scope: 'agent', scopeId: 'main', limitUsdCents: 1, mode: 'cap' });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const res = await asGateway('svc-main~fakeant', '/messages', messagesBody('over the cap'));
  const text = await res.text();
  assert.equal(res.status, 200, text);
  assert.match(text, REFUSAL);
  assert.equal(fake.requests.length, before, 'the refused call never reached the provider');
});
