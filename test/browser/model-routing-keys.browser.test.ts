// The gateway page's "Model routing" section in a real browser against a real
// svc (issue 31 item 6): a provider whose base URL moved off the host its key
// was stored for is shown unconfirmed and gets the key only once the operator
// confirms the host; an agent's model token is revoked (its calls get 401)
// and rotated (a new token under a new .env name) from the page, which never
// shows a token. No gateway runs: svc writes the gateway's files itself.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ModelRoutingView } from '../../shared/model-routing/status.ts';
import { parseDotenv } from '../../shared/settings/gateway-files.ts';
import { axeSerious, openPage, startSvc, useBrowser } from '../helpers/browser.ts';
import { tempHome } from '../helpers/server.ts';
import { call } from '../helpers/team-chat-api.ts';

const browser = useBrowser();
const SECRET = 'sk-fake-provider-secret-77c2e0';

void test('Budgets (issue 31, item 6): the page confirms a moved provider host, and revokes and rotates an agent\'s model token', async (t) => {
  const home = tempHome('svc-ui-routing-keys-');
  const dir = join(home, 'gateway-state');
  mkdirSync(dir, { recursive: true });
  const configFile = join(dir, 'openclaw.json');
  const envFile = join(dir, '.env');
  const config = {
    models: { providers: { fakellm: { baseUrl: 'http://127.0.0.1:9/v1', api: 'openai-completions', apiKey: '${FAKELLM_API_KEY}', models: [{ id: 'fake-1', name: 'Fake 1' }] } } },
    agents: { defaults: { model: { primary: 'fakellm/fake-1' } }, entries: { res: { model: 'fakellm/fake-1' } } },
  };
  writeFileSync(configFile, JSON.stringify(config));
  writeFileSync(envFile, `FAKELLM_API_KEY=${SECRET}\n`);
  const svc = await startSvc(t, { home });
  assert.equal((await call<ModelRoutingView>(svc.base, 'POST', '/api/system/model-routing/sync')).status, 200);
  // Someone with the gateway's files moves the provider to another host (svc's own write put `svc-*` entries in).
  const written = JSON.parse(readFileSync(configFile, 'utf8')) as typeof config;
  written.models.providers.fakellm.baseUrl = 'https://user:pw@collector.example/v1?key=abc';
  writeFileSync(configFile, JSON.stringify(written));
  const moved = await call<ModelRoutingView>(svc.base, 'POST', '/api/system/model-routing/sync');
  assert.equal(moved.body.upstreams.find((u) => u.id === 'fakellm')?.state, 'key-unconfirmed');

  const { page, allow } = await openPage(t, browser());
  allow(/status of 401/);
  await page.goto(`${svc.base}/gateway`);
  const section = page.getByRole('region', { name: 'Model routing' });
  const providers = section.getByRole('list', { name: 'Providers svc forwards to' });
  const fakellm = providers.getByRole('listitem').filter({ hasText: 'fakellm' });
  await fakellm.getByText('Key not sent: https://collector.example is not the host it was stored for').waitFor();
  assert.equal(await fakellm.getByText('https://collector.example/v1?key=redacted', { exact: true }).count(), 1, 'the URL is shown without its credentials');
  assert.ok(!(await page.content()).includes('pw@'));
  assert.deepEqual(await axeSerious(page), [], 'with an unconfirmed host');
  await fakellm.getByRole('button', { name: 'Send the key to https://collector.example' }).click();
  await fakellm.getByText('Key held by svc').waitFor();

  // The agent's token: revoke, then rotate.
  const row = section.getByRole('region', { name: 'Routed agents' }).getByRole('row', { name: /^res\b/ });
  await row.getByText('Live', { exact: true }).waitFor();
  const old = parseDotenv(readFileSync(envFile, 'utf8')).SVC_MODEL_TOKEN_RES as string;
  const modelCall = (token: string) =>
    fetch(`${svc.base}/model/res/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'fake-1', messages: [] }) });
  assert.notEqual((await modelCall(old)).status, 401);
  await row.getByRole('button', { name: "Revoke res's model token" }).click();
  await row.getByText('Revoked: its calls are refused until rotated').waitFor();
  assert.equal((await modelCall(old)).status, 401, 'the revoked token is refused at once');
  assert.equal(await row.getByRole('button', { name: "Revoke res's model token" }).count(), 0);

  await row.getByRole('button', { name: "Rotate res's model token" }).click();
  await row.getByText('Live', { exact: true }).waitFor();
  const env = parseDotenv(readFileSync(envFile, 'utf8'));
  const fresh = env.SVC_MODEL_TOKEN_RES__R2 as string;
  assert.equal(env.SVC_MODEL_TOKEN_RES, undefined, 'the old name left the gateway .env');
  assert.notEqual((await modelCall(fresh)).status, 401, 'the new token is accepted');
  assert.equal(JSON.parse(readFileSync(configFile, 'utf8')).models.providers['svc-res'].apiKey, '${SVC_MODEL_TOKEN_RES__R2}');
  const content = await page.content();
  for (const secret of [SECRET, old, fresh]) assert.ok(!content.includes(secret), 'the page never shows a key or a token');
  assert.deepEqual(await axeSerious(page), [], 'after the rotation');
});
