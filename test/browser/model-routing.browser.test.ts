// The gateway page's "Model routing" section and a run's model calls on its
// trace page, in a real browser against a real svc (issue 22, items 2, 5 and
// 7; brief D). Routing is driven through the gateway's files (no gateway
// runs: svc writes openclaw.json and .env itself when it is not connected,
// as it does for a gateway it manages but that is stopped). The model calls
// are seeded through the model_calls store on svc's database file
// (shared/model-calls), the rows the endpoint writes.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../shared/db/open.ts';
import { createModelCalls, type ModelCallEnd, type OpenModelCall } from '../../shared/model-calls/index.ts';
import type { ModelRoutingView } from '../../shared/model-routing/status.ts';
import { axeSerious, openPage, startSvc, useBrowser } from '../helpers/browser.ts';
import { tempHome } from '../helpers/server.ts';
import { call, createTeam, teamKey } from '../helpers/team-chat-api.ts';

const browser = useBrowser();
const SECRET = 'sk-fake-provider-secret-4f9a1c';

/** A stopped gateway's files: a custom provider whose key is in .env, two agents on it (one with fallbacks, one with a sub-agent model), one on an OAuth login, one on a keyless local model. */
function gatewayFiles(home: string): { config: string; env: string } {
  const dir = join(home, 'gateway-state');
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'openclaw.json');
  const env = join(dir, '.env');
  writeFileSync(
    config,
    JSON.stringify({
      models: {
        providers: {
          fakellm: {
            baseUrl: 'http://127.0.0.1:9/v1',
            api: 'openai-completions',
            apiKey: '${FAKELLM_API_KEY}',
            models: [{ id: 'fake-1', name: 'Fake 1' }, { id: 'fake-2', name: 'Fake 2' }],
          },
        },
      },
      agents: { defaults: { model: { primary: 'fakellm/fake-1' } }, entries: { res: { model: 'fakellm/fake-1', subagents: { model: 'fakellm/fake-2' } }, fb: { model: { primary: 'fakellm/fake-1', fallbacks: ['fakellm/fake-2', 'openai-codex/gpt-5.5'] } }, coder: { model: 'openai-codex/gpt-5.5' }, local: { model: 'ollama/gemma4' } } },
    }),
  );
  writeFileSync(env, `FAKELLM_API_KEY=${SECRET}\n`);
  return { config, env };
}

const view = async (base: string) => (await call<ModelRoutingView>(base, 'GET', '/api/system/model-routing')).body;

void test('Budgets (issue 22, item 7): the gateway page routes the agents through svc and back; keys shown by presence only', async (t) => {
  const home = tempHome('svc-ui-routing-');
  const files = gatewayFiles(home);
  const svc = await startSvc(t, { home });
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/gateway`);
  const section = page.getByRole('region', { name: 'Model routing' });
  const agents = section.getByRole('region', { name: 'Routed agents' });
  const agentRow = (id: string) => agents.getByRole('row', { name: new RegExp(`^${id}\\b`) });
  const fallbacks = (id: string) => agents.getByRole('list', { name: `${id}'s fallbacks` }).getByRole('listitem');
  const subagentModel = (id: string) => agents.getByRole('list', { name: `${id}'s sub-agent model` }).getByRole('listitem');
  const OAUTH_FALLBACK = 'then openai-codex/gpt-5.5 (Not routed: a login (OAuth) provider; metered from the gateway’s usage)';

  // On by default, not applied yet: the key is still in the gateway's files and the page says so.
  const toggle = section.getByRole('switch', { name: /Route model calls through svc/ });
  await toggle.waitFor();
  assert.equal(await toggle.isChecked(), true);
  await agentRow('res').getByText('Not routed yet: Sync routes it', { exact: true }).waitFor();
  await agentRow('coder').getByText(/Not routed: a login \(OAuth\) provider/).waitFor();
  const warning = section.getByRole('alert').filter({ hasText: 'Provider keys are still in the gateway' });
  assert.deepEqual(await warning.getByRole('listitem').allInnerTexts(), ['FAKELLM_API_KEY']);
  await section.getByText('svc holds no provider yet.').waitFor();
  await section.getByText('Not synced yet.').waitFor();
  assert.deepEqual(await fallbacks('fb').allInnerTexts(), ['then fakellm/fake-2 (not routed yet: Sync routes it)', OAUTH_FALLBACK]);
  assert.deepEqual(await subagentModel('res').allInnerTexts(), ['as a sub-agent fakellm/fake-2 (not routed yet: Sync routes it)']);

  // Sync: the key moves into svc's vault; the agents point at svc.
  await section.getByRole('button', { name: 'Sync' }).click();
  await section.getByText(/^Last synced /).waitFor();
  await agentRow('res').getByText('Routed', { exact: true }).waitFor();
  await agentRow('main').getByText('Routed', { exact: true }).waitFor();
  await agentRow('coder').getByText(/Not routed: a login/).waitFor();
  // A fallback on the agent's provider goes through svc with it; one on a login provider stays off svc, and says so.
  await agentRow('fb').getByText('Routed', { exact: true }).waitFor();
  assert.deepEqual(await fallbacks('fb').allInnerTexts(), ['then fakellm/fake-2 (through svc)', OAUTH_FALLBACK]);
  // So does the model res runs on when another agent spawns it.
  assert.deepEqual(await subagentModel('res').allInnerTexts(), ['as a sub-agent fakellm/fake-2 (through svc)']);
  assert.equal(await subagentModel('fb').count(), 0, 'an agent without a sub-agent model of its own lists none');
  const upstream = section.getByRole('list', { name: 'Providers svc forwards to' }).getByRole('listitem');
  assert.deepEqual((await upstream.allInnerTexts()).sort(), ['fakellm http://127.0.0.1:9/v1\nKey held by svc', 'ollama http://127.0.0.1:11434/v1\nNo key held']);
  await agentRow('local').getByText('Routed', { exact: true }).waitFor();
  assert.equal(await warning.count(), 0, 'no key left in the gateway files');
  assert.ok(!readFileSync(files.env, 'utf8').includes(SECRET), 'the key left the gateway .env');
  assert.equal(JSON.parse(readFileSync(files.config, 'utf8')).agents.entries.res.model, 'svc-res/fake-1');
  assert.deepEqual(JSON.parse(readFileSync(files.config, 'utf8')).agents.entries.res.subagents, { model: 'svc-res/fake-2' });
  assert.ok(!(await page.content()).includes(SECRET), 'the page never shows a key');

  // A routed gateway agent svc has no agent row for can have a budget: the picker offers it, the server takes it.
  const budgets = await openPage(t, browser());
  await budgets.page.goto(`${svc.base}/budgets`);
  await budgets.page.getByRole('button', { name: 'New budget' }).first().click();
  const dialog = budgets.page.getByRole('dialog', { name: 'New budget' });
  await dialog.getByLabel('Counts spend of').selectOption('agent');
  await dialog.getByLabel('Agent', { exact: true }).selectOption({ label: 'res (gateway)' });
  await dialog.getByLabel('Limit (US dollars)').fill('3');
  await dialog.getByRole('button', { name: 'Create budget' }).click();
  await budgets.page.getByText('Created Agent res.').waitFor();
  const made = (await call<Array<{ scope: string; scopeId: string }>>(svc.base, 'GET', '/api/governance/budgets')).body;
  assert.deepEqual(made.map((b) => [b.scope, b.scopeId]), [['agent', 'res']]);

  // Off, by keyboard: the agents go back to the provider, the key back to the gateway's .env.
  await toggle.focus();
  await page.keyboard.press('Space');
  await agentRow('res').getByText('Not routed: routing is off', { exact: true }).waitFor();
  assert.equal(await toggle.isChecked(), false);
  await section.getByText('With routing off the gateway reads its provider keys from its own files:').waitFor();
  assert.equal(await warning.count(), 0, 'with routing off the keys are where the gateway needs them: no alarm');
  assert.ok(readFileSync(files.env, 'utf8').includes(`FAKELLM_API_KEY=${SECRET}`));
  assert.equal(JSON.parse(readFileSync(files.config, 'utf8')).agents.entries.res.model, 'fakellm/fake-1');
  assert.deepEqual(JSON.parse(readFileSync(files.config, 'utf8')).agents.entries.res.subagents, { model: 'fakellm/fake-2' });
  const after = await view(svc.base);
  assert.equal(after.enabled, false);
  assert.ok(!JSON.stringify(after).includes(SECRET));
  assert.ok(!(await page.content()).includes(SECRET));

  for (const colorScheme of ['light', 'dark'] as const) {
    const { page: p } = await openPage(t, browser(), { colorScheme });
    await p.goto(`${svc.base}/gateway`);
    await p.getByRole('region', { name: 'Model routing' }).getByRole('region', { name: 'Routed agents' }).waitFor();
    assert.deepEqual(await axeSerious(p), [], colorScheme);
  }
  const { page: phone } = await openPage(t, browser(), { viewport: { width: 390, height: 844 } });
  await phone.goto(`${svc.base}/gateway`);
  await phone.getByRole('region', { name: 'Model routing' }).getByRole('region', { name: 'Routed agents' }).waitFor();
  assert.equal(await phone.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth'), true, 'no sideways scroll at 390 px');
  assert.deepEqual(await axeSerious(phone), [], 'at 390 px');
});

void test('Budgets (issue 22, item 7): with no gateway to route, Sync shows the server refusal', async (t) => {
  const svc = await startSvc(t);
  const { page, allow } = await openPage(t, browser());
  allow(/status of 409/);
  await page.goto(`${svc.base}/gateway`);
  const section = page.getByRole('region', { name: 'Model routing' });
  await section.getByText('No agents on the gateway yet.').waitFor();
  await section.getByRole('button', { name: 'Sync' }).click();
  await section.getByRole('alert').getByText('no gateway to route: configure the gateway first').waitFor();
});

void test('Budgets (issue 22, item 7): a run trace lists its model calls with tokens, cost, time to first token, duration and outcome', async (t) => {
  const svc = await startSvc(t);
  const db = openDatabase(join(svc.home, 'svc.db'));
  const t0 = Date.UTC(2026, 10, 25, 9, 0, 0);
  try {
    const calls = createModelCalls(db);
    const seed = (over: Partial<OpenModelCall>, end: Omit<ModelCallEnd, 'endedAt'>, at: number) => {
      const id = calls.open({
        agentId: 'res', teamId: null, taskId: null, sessionKey: 'agent:res:main', runId: 'run-1', traceId: 'a'.repeat(32),
        provider: 'fakellm', api: 'openai-completions', model: 'fake-1', estimateUsd: 0.01, startedAt: at, ...over,
      });
      assert.equal(calls.finish(id, { ...end, endedAt: at + (end.durationMs ?? 0) }), true);
    };
    seed({}, { outcome: 'ok', inputTokens: 1234, outputTokens: 56, cacheReadTokens: 1000, costUsd: 0.000456, ttftMs: 182, durationMs: 2_450 }, t0);
    seed({ model: 'claude-x', provider: 'anthropic', api: 'anthropic-messages' }, { outcome: 'upstream_error', httpStatus: 429, durationMs: 40 }, t0 + 5_000);
    seed({}, { outcome: 'refused', inputTokens: 0, outputTokens: 0, costUsd: 0, durationMs: 3 }, t0 + 9_000);
    seed({ runId: 'run-2' }, { outcome: 'ok', inputTokens: 9, outputTokens: 9, costUsd: 1, ttftMs: 1, durationMs: 1 }, t0 + 1_000);
  } finally {
    db.close();
  }

  // The way in: an agent's reply in the team chat links to its run's model calls.
  const teamId = await createTeam(svc.base, 'Trace crew', [{ id: 'res', name: 'Res' }], 'res');
  const onboarded = await call(svc.base, 'PATCH', `/api/teams/${teamId}/onboarding`, { agentsIntroduced: true, userIntroduced: true });
  assert.equal(onboarded.status, 200, JSON.stringify(onboarded.body));
  const sessionKey = teamKey('res', teamId);
  const reply = {
    entryId: 'reply-1', role: 'assistant', kind: 'message', text: 'Done: the summary is on the board.', sessionKey, runId: 'run-1',
    source: 'team-chat', timestampMs: t0, sequenceKey: 1, confirmed: true, fingerprint: 'reply-1', teamId, agentId: 'res',
  };
  const seeded = await call(svc.base, 'POST', '/api/chat-history', { sessionKey, entries: [reply] });
  assert.equal(seeded.status, 200, JSON.stringify(seeded.body));
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/teams/${teamId}`);
  await page.locator('[data-entry-id="reply-1"]').getByRole('link', { name: 'model calls' }).click();
  await page.getByRole('heading', { level: 1, name: 'Run trace' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/runs/run-1');
  const table = page.getByRole('region', { name: 'Model calls table' });
  await table.getByText('3 model calls, $0.000456 in all').waitFor();
  const rows: string[][] = [];
  for (const tr of await table.locator('tbody tr').all()) {
    const cells = await tr.locator('th, td').allInnerTexts();
    rows.push(cells.slice(1).map((c) => c.replace(/\s+/g, ' ').trim()));
  }
  // Oldest first, as the run made them; the other run's call is not here.
  assert.deepEqual(rows, [
    ['fake-1 fakellm', '1,234 1,000 cached', '56', '$0.000456', '182 ms', '2.5 s', 'OK'],
    ['claude-x anthropic', '—', '—', '—', '—', '40 ms', 'Provider error 429'],
    ['fake-1 fakellm', '0', '0', '$0', '—', '3 ms', 'Refused (budget)'],
  ]);
  assert.deepEqual(await axeSerious(page), [], 'light');

  const { page: dark } = await openPage(t, browser(), { colorScheme: 'dark', viewport: { width: 390, height: 844 } });
  await dark.goto(`${svc.base}/runs/no-such-run`);
  await dark.getByText('No model calls for this run').waitFor();
  await dark.goto(`${svc.base}/runs/run-1`);
  await dark.getByText('3 model calls, $0.000456 in all').waitFor();
  assert.equal(await dark.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth'), true, 'no sideways scroll at 390 px');
  assert.deepEqual(await axeSerious(dark), [], 'dark at 390 px');
});
