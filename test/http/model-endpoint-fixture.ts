// svc's model endpoint on a real socket (the real app in-process, its real
// SQLite file) with two real upstream servers behind it: the fake OpenAI
// model of fake-model.ts and the fake Anthropic / Responses provider of
// fake-anthropic.ts. The routing registry and the vault are written as the
// routing sync would write them (configuration, not a fake); each agent gets
// a minted `model` token. The provider keys are distinctive strings, so a
// test can look for them anywhere.
import type { TestContext } from 'node:test';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.ts';
import { startFakeModel, type FakeModel } from '../helpers/fake-model.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

export const OPENAI_KEY = 'sk-fake-openai-KEY-0123456789abcdefXYZ';
export const ANTHROPIC_KEY = 'sk-ant-fake-KEY-abcdef0123456789XYZ';
/** A priced model (shared/pricing.ts), so costs and budget spend are not zero. */
export const PRICED_MODEL = 'gpt-4o-mini';

export interface Endpoint extends TestApp {
  base: string;
  port: number;
  openai: FakeModel;
  anthropic: FakeAnthropic;
  /** A minted `model` token per agent: alice → OpenAI completions, bob → Anthropic, carol → Responses. */
  tokens: Record<'alice' | 'bob' | 'carol' | 'dave', string>;
}

/** The endpoint's body limit in these tests (SVC_MODEL_BODY_LIMIT_BYTES): small, so the 413 test sends little. */
export const TEST_BODY_LIMIT_BYTES = 64 * 1024;

export async function startEndpoint(t: TestContext, env: Record<string, string> = {}): Promise<Endpoint> {
  const built = await buildTestApp(t, { env: { SVC_MODEL_BODY_LIMIT_BYTES: String(TEST_BODY_LIMIT_BYTES), ...env } });
  const openai = await startFakeModel();
  const anthropic = await startFakeAnthropic();
  t.after(async () => {
    await openai.close();
    await anthropic.close();
  });
  const { deps } = built.runtime;
  deps.vault.set('OPENAI_API_KEY', OPENAI_KEY);
  deps.vault.set('ANTHROPIC_API_KEY', ANTHROPIC_KEY);
  deps.modelRouting.registry.write({
    agents: { alice: { upstream: 'fake' }, bob: { upstream: 'anthropic' }, carol: { upstream: 'responses' } },
    upstreams: {
      fake: { api: 'openai-completions', baseUrl: openai.url, keyName: 'OPENAI_API_KEY', headers: {} },
      anthropic: { api: 'anthropic-messages', baseUrl: anthropic.url, keyName: 'ANTHROPIC_API_KEY', headers: {} },
      responses: { api: 'openai-responses', baseUrl: `${anthropic.url}/v1`, keyName: 'OPENAI_API_KEY', headers: {} },
    },
  });
  const mint = (agentId: string) => deps.agentTokens.mint('model', { agentId }).token;
  // dave holds a valid token but has no registry entry.
  const tokens = { alice: mint('alice'), bob: mint('bob'), carol: mint('carol'), dave: mint('dave') };
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = built.app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { ...built, base: `http://127.0.0.1:${port}`, port, openai, anthropic, tokens };
}

/** A chat-completions body with a Runtime line, as the gateway sends it. */
export function completionsBody(prompt: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: PRICED_MODEL, stream: true, messages: [{ role: 'user', content: prompt }], ...extra };
}

export function post(e: Endpoint, path: string, token: string | null, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(`${e.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal,
  });
}

/** The data lines of an SSE body, parsed. */
export function sseData(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}

export async function createBudget(e: Endpoint, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await e.app.inject({ method: 'POST', url: '/api/governance/budgets', payload: body });
  if (r.statusCode !== 200) throw new Error(`budget not created: ${r.statusCode} ${r.body}`);
  return r.json();
}

export async function budgetsOf(e: Endpoint): Promise<Array<Record<string, unknown>>> {
  const r = await e.app.inject({ method: 'GET', url: '/api/governance/budgets' });
  const body = r.json() as unknown;
  return (Array.isArray(body) ? body : (body as { budgets: Array<Record<string, unknown>> }).budgets) as Array<Record<string, unknown>>;
}

export async function callsOf(e: Endpoint, query = ''): Promise<Array<Record<string, unknown>>> {
  const r = await e.app.inject({ method: 'GET', url: `/api/model-calls${query}` });
  return (r.json() as { calls: Array<Record<string, unknown>> }).calls;
}
