// Issue 18 journeys 1 and 7 in a real browser against a real svc and a REAL
// OpenClaw gateway (brief A). One svc and one gateway for the whole file, in
// order: journey 1 goes from a fresh state directory to a running, paired
// gateway through /setup (the install is a real global npm install of the
// pinned openclaw into a prefix of this test, Node 24 first on PATH); journey
// 7 saves a config change on /gateway and restarts; then a start survives
// navigating away and back; then axe in dark. Node 24 and the npm cache come
// from test/helpers/real-gateway.ts (installed once into the test cache).
import type { SystemStatus } from '../../shared/channels/gateway-host.ts';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { axeSerious, openPage, useBrowser } from '../helpers/browser.ts';
import { firstRunEnv, proxyConnect, type FirstRunEnv } from '../helpers/browser-gateway.ts';
import { killGroup, OPENCLAW_VERSION } from '../helpers/real-gateway.ts';
import { waitFor } from '../helpers/wait.ts';
import { freePort, removeHome, startServer, tempHome, type RunningServer } from '../helpers/server.ts';

const SETUP_TIMEOUT_MS = 20 * 60_000;
/** Bounds on what a person would wait for; never assertions. */
const INSTALL_WAIT_MS = 15 * 60_000;
const START_WAIT_MS = 3 * 60_000;

const browser = useBrowser();
let home: string;
let run: FirstRunEnv;
let svc: RunningServer;
let gatewayPort: number;

before(async () => {
  home = tempHome('svc-ui-gateway-');
  run = await firstRunEnv(home);
  gatewayPort = await freePort();
  const uiDist = process.env.SVC_TEST_UI_DIST;
  svc = await startServer({ home, env: { ...run.env, ...(uiDist ? { SVC_UI_DIST: uiDist } : {}) } });
}, { timeout: SETUP_TIMEOUT_MS });

after(async () => {
  await svc?.stop();
  // A gateway a failed test left running is stopped by its process group.
  const pidFile = join(home, 'gateway.pid');
  if (existsSync(pidFile)) await killGroup((JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number }).pid);
  if (home) removeHome(home);
});

type Status = SystemStatus;
const getJson = async <T,>(path: string): Promise<T> => (await fetch(`${svc.base}${path}`)).json() as Promise<T>;
const step = (page: Page, name: RegExp) => page.getByRole('region', { name });
const nav = (page: Page, name: RegExp) => page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name });
const logText = async (page: Page, name: string) => (await page.getByRole('log', { name }).textContent()) ?? '';

void test('Dashboard (issue 18, journey 1): from a fresh home to a running, paired gateway through /setup: a real install with its live log, the key form, a start with its progress bar, pairing with one click', { timeout: SETUP_TIMEOUT_MS }, async (t) => {
  const { page, allow } = await openPage(t, browser());
  // The second pairing click is answered 404 on purpose (nothing waits); the browser logs it.
  allow(/status of 404 \(Not Found\) \(http:\/\/127\.0\.0\.1:\d+\/api\/system\/approve-device\)/);
  await page.goto(`${svc.base}/`);
  await page.getByRole('heading', { name: 'Set up svc', level: 1 }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/setup');
  await step(page, /Check Node\.js/).getByText('Done', { exact: true }).waitFor();

  // Install for real: the step, the live log, the outcome, then the status's verdict.
  const install = step(page, /Install the gateway CLI/);
  assert.match((await install.textContent()) ?? '', /To do/);
  await install.getByRole('button', { name: 'Install the gateway CLI' }).click();
  await install.getByText('Install the gateway CLI: Installing…').waitFor();
  await install.getByText(`Install the gateway CLI succeeded. Done: version ${OPENCLAW_VERSION}.`).waitFor({ timeout: INSTALL_WAIT_MS });
  assert.match(await logText(page, 'Install the gateway CLI log'), /added \d+ packages?/);
  await install.getByText('Done', { exact: true }).waitFor();
  await install.getByText(`Installed: version ${OPENCLAW_VERSION} at ${join(run.npmPrefix, 'bin', 'openclaw')}.`).waitFor();

  // Configure: auto-configure finds nothing, the key form takes a dummy key and a free port.
  const configure = step(page, /Configure the gateway/);
  await configure.getByRole('button', { name: 'Configure automatically' }).click();
  await configure.getByText('No provider key or login found. Enter a provider key below.').waitFor();
  await configure.getByLabel('Provider', { exact: true }).selectOption('anthropic');
  await configure.getByLabel('API key').fill('sk-ant-dummy-never-called');
  await configure.getByText('Advanced').click();
  await configure.getByLabel('Gateway port').fill(String(gatewayPort));
  await configure.getByRole('button', { name: 'Save and configure' }).click();
  await configure.getByText(`Configured: the gateway will listen at ws://localhost:${gatewayPort}.`).waitFor();
  await configure.getByText('Done', { exact: true }).waitFor();

  // Start: the progress bar counts the gateway's polls, then the step is done.
  const start = step(page, /Start the gateway/);
  await start.getByRole('button', { name: 'Start the gateway' }).click();
  await start.getByRole('progressbar', { name: /^Gateway checks: \d+ of 120$/ }).waitFor({ timeout: START_WAIT_MS });
  await start.getByText(/^Start the gateway succeeded\. Done: pid \d+/).waitFor({ timeout: START_WAIT_MS });
  await start.getByText('Done', { exact: true }).waitFor();
  await start.getByText(new RegExp(`^Running on port ${gatewayPort} \\(pid \\d+\\)\\.$`)).waitFor();

  // Pair: a browser-side connect through svc's proxy leaves svc's device waiting for approval; one click approves it.
  assert.deepEqual(await proxyConnect(svc.base), { ok: false, code: 'NOT_PAIRED' });
  const pair = step(page, /Pair svc with the gateway/);
  await pair.getByRole('button', { name: 'Pair svc with the gateway' }).click();
  await pair.getByText(/^Paired: the gateway approved svc’s device \(request [0-9a-f-]{36}\)\.$/).waitFor({ timeout: 90_000 });
  await pair.getByText('Done', { exact: true }).waitFor();
  assert.deepEqual(await proxyConnect(svc.base), { ok: true }, 'the proxied connect is let in once paired');
  // Nothing waits any more: the 404, explained.
  await pair.getByRole('button', { name: 'Pair svc with the gateway' }).click();
  await pair.getByText('No pending device pairing requests found').waitFor({ timeout: 90_000 });
  await pair.getByText(/Nothing is waiting for approval: svc’s device is already paired/).waitFor();
  await page.getByRole('link', { name: 'Go to your teams' }).waitFor();

  const status = await getJson<Status>('/api/system/status');
  assert.equal(status.gatewayCli.installed, true);
  assert.equal(status.gatewayCli.version, OPENCLAW_VERSION);
  assert.equal(status.gatewayCli.path, join(run.npmPrefix, 'bin', 'openclaw'));
  assert.equal(status.gateway.running, true);
  assert.equal(status.gateway.port, gatewayPort);
  assert.ok(status.gateway.pid !== null && status.gateway.managedByService, `svc manages the gateway it started: ${JSON.stringify(status.gateway)}`);
  assert.deepEqual(await axeSerious(page), []);

  await nav(page, /^Gateway/).click();
  await page.getByRole('heading', { name: 'Gateway', level: 1 }).waitFor();
  const card = page.getByRole('region', { name: 'Status' });
  await card.getByText('Running', { exact: true }).waitFor();
  await card.getByText(String(gatewayPort), { exact: true }).waitFor();
  await card.getByText(String(status.gateway.pid), { exact: true }).waitFor();
});

void test('Dashboard (issue 18, journey 7): the gateway page saves exec ask, says "hot reloaded" as the server did, restarts with its progress, and runs again', { timeout: SETUP_TIMEOUT_MS }, async (t) => {
  const before = await getJson<Status>('/api/system/status');
  assert.equal(before.gateway.running, true, 'journey 1 left the gateway running');
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/gateway`);
  const config = page.getByRole('region', { name: 'Configuration' });
  const ask = config.getByLabel('Exec approval (ask)');
  await ask.waitFor();
  assert.equal(await ask.inputValue(), '');
  // The key the journey set shows as a presence flag only.
  await config.getByLabel('New Anthropic key (set)').waitFor();
  await ask.selectOption('always');
  await config.getByRole('button', { name: 'Save' }).click();
  await config.getByText('Saved. The gateway hot reloaded the change.').waitFor();
  const saved = await getJson<{ execAsk: unknown; config: { tools?: { exec?: { ask?: string } } } }>('/api/system/gateway-config');
  assert.equal(saved.execAsk, 'always');
  assert.equal(saved.config.tools?.exec?.ask, 'always');

  const card = page.getByRole('region', { name: 'Status' });
  await card.getByRole('button', { name: 'Restart', exact: true }).click();
  await card.getByText(/^Restart the gateway: .+…$/).waitFor({ timeout: START_WAIT_MS });
  await card.getByRole('progressbar', { name: /^Gateway checks: \d+ of 120$/ }).waitFor({ timeout: START_WAIT_MS });
  await card.getByText(/^Restart the gateway succeeded\. Done: pid \d+/).waitFor({ timeout: START_WAIT_MS });
  const after = await getJson<Status>('/api/system/status');
  assert.equal(after.gateway.running, true);
  assert.notEqual(after.gateway.pid, before.gateway.pid, 'a new gateway process');
  await card.getByText(String(after.gateway.pid), { exact: true }).waitFor();
  await card.getByText('Running', { exact: true }).waitFor();
  assert.equal((await getJson<{ execAsk: unknown }>('/api/system/gateway-config')).execAsk, 'always', 'the change outlived the restart');
  assert.deepEqual(await axeSerious(page), []);
  // A fresh load shows the saved value (from the server, not from the input).
  await page.reload();
  await waitFor(async () => (await config.getByLabel('Exec approval (ask)').inputValue()) === 'always', { what: 'the form to show exec ask "always"' });
});

void test('Dashboard (issue 18, Gateway): a start survives navigating to /teams and back mid-job: its log is still there and it completes', { timeout: SETUP_TIMEOUT_MS }, async (t) => {
  const { page } = await openPage(t, browser());
  const starts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/system/gateway') starts.push(r.postData() ?? '');
  });
  await page.goto(`${svc.base}/gateway`);
  const card = page.getByRole('region', { name: 'Status' });
  await card.getByRole('button', { name: 'Stop', exact: true }).click();
  await card.getByText('Stopped.', { exact: true }).waitFor({ timeout: 30_000 });
  await card.getByText('Stopped', { exact: true }).waitFor();
  assert.equal((await getJson<Status>('/api/system/status')).gateway.running, false);

  await card.getByRole('button', { name: 'Start', exact: true }).click();
  // Mid-job: the poll count is moving and the gateway has written to its log.
  await card.getByRole('progressbar', { name: /^Gateway checks: \d+ of 120$/ }).waitFor({ timeout: START_WAIT_MS });
  await card.getByRole('log', { name: 'Start the gateway log' }).waitFor({ timeout: START_WAIT_MS });
  const logBefore = await logText(page, 'Start the gateway log');
  assert.ok(logBefore.length > 0);

  await nav(page, /^Teams/).click();
  await page.waitForURL(/\/teams$/);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  // The setup page shows the same job: one job, wherever it is looked at.
  await nav(page, /^Setup/).click();
  const setupStart = step(page, /Start the gateway/);
  await setupStart.getByRole('log', { name: 'Start the gateway log' }).waitFor();
  assert.ok((await logText(page, 'Start the gateway log')).startsWith(logBefore));
  await page.goBack();
  await page.goBack();
  await page.waitForURL(/\/gateway$/);
  const back = page.getByRole('region', { name: 'Status' });
  assert.ok((await logText(page, 'Start the gateway log')).startsWith(logBefore), 'the log is still there');
  await back.getByText(/^Start the gateway succeeded\. Done: pid \d+/).waitFor({ timeout: START_WAIT_MS });
  await back.getByText('Running', { exact: true }).waitFor();
  assert.equal((await getJson<Status>('/api/system/status')).gateway.running, true);
  assert.deepEqual(
    starts.map((b) => (JSON.parse(b) as { action: string }).action),
    ['stop', 'start'],
    'one start request: navigating did not abort or repeat it',
  );
});

void test('Dashboard (issue 18, Gateway): /gateway and /setup with a running gateway pass axe in dark', async (t) => {
  const { page } = await openPage(t, browser(), { colorScheme: 'dark' });
  await page.goto(`${svc.base}/gateway`);
  await page.getByRole('region', { name: 'Status' }).getByText('Running', { exact: true }).waitFor();
  await page.getByRole('region', { name: 'Configuration' }).getByLabel('Default model').waitFor();
  assert.deepEqual(await axeSerious(page), []);
  await page.goto(`${svc.base}/setup`);
  await step(page, /Start the gateway/).getByText('Done', { exact: true }).waitFor();
  assert.deepEqual(await axeSerious(page), []);
});
