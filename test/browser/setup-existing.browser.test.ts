// Issue 30 #5 and #6 on the Setup page, in a real browser against a real
// svc. #5: a REAL OpenClaw gateway (the fake model its only provider) runs
// outside svc, started by this file; svc starts with its state directory but
// settings that name another gateway. Setup shows a card at the top ("A
// gateway is already running on port N"), Connect to it connects svc's
// gateway link, and the card then says svc is connected; axe in light, and in
// dark at 390 x 844 with no sideways scroll. #6: on a svc whose PATH has
// only this machine's Node 20, the first step's "Install Node 24 for the
// gateway" runs the REAL install (npm's node-<platform>-<arch>@24 into the
// test's SVC_HOME; npm's cache makes it quick) with its live log, and the
// step is then done. One gateway for the file.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { loadOrCreateDeviceIdentity } from '../../shared/gateway/device-identity.ts';
import { managedNodeSpec } from '../../shared/gateway/managed-node.ts';
import { axeSerious, openPage, startSvc, useBrowser } from '../helpers/browser.ts';
import { startFakeModel, type FakeModel } from '../helpers/fake-model.ts';
import {
  ensureGatewayInstalled, gatewayEnv, prepareGatewayState, startRealGateway, waitForConnect, type GatewayInstall, type StartedGateway,
} from '../helpers/real-gateway.ts';
import { freePort, removeHome, tempHome } from '../helpers/server.ts';

const SETUP_TIMEOUT_MS = 20 * 60_000;
const INSTALL_WAIT_MS = 15 * 60_000;

const browser = useBrowser();
let install: GatewayInstall;
let model: FakeModel;
let gatewayHome: string;
let stateDir: string;
let gwPort: number;
let gateway: StartedGateway | undefined;

before(async () => {
  install = await ensureGatewayInstalled();
  model = await startFakeModel();
  gatewayHome = tempHome('svc-ui-their-gateway-');
  stateDir = join(gatewayHome, 'state');
  gwPort = await freePort();
  const token = `test-${randomBytes(12).toString('hex')}`;
  prepareGatewayState(stateDir, { port: gwPort, token, modelUrl: model.url });
  gateway = startRealGateway(install, stateDir, gwPort);
  await waitForConnect(`ws://127.0.0.1:${gwPort}`, token, loadOrCreateDeviceIdentity(join(gatewayHome, 'probe-identity.json')));
}, { timeout: SETUP_TIMEOUT_MS });

after(async () => {
  await gateway?.stop();
  await model?.close();
  if (gatewayHome) removeHome(gatewayHome);
});

/** svc with their gateway's state dir and the person's PATH, its settings naming another gateway. */
async function svcBesideTheirGateway(t: Parameters<typeof startSvc>[0]) {
  const home = tempHome('svc-ui-existing-');
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ gateway: { url: `ws://localhost:${await freePort()}`, token: 'stale-token' } }), { mode: 0o600 });
  return startSvc(t, { home, env: { ...gatewayEnv(install, stateDir), OPENCLAW_STATE_DIR: stateDir } });
}

const card = (page: Page, name: RegExp) => page.getByRole('region', { name });

void test('Issue 30 #5: Setup shows the gateway already running on this machine and connects svc to it', async (t) => {
  const svc = await svcBesideTheirGateway(t);
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/setup`);
  const found = card(page, new RegExp(`^A gateway is already running on port ${gwPort}$`));
  await found.waitFor();
  const text = (await found.textContent()) ?? '';
  assert.match(text, new RegExp(`Found in ${stateDir}: a config \\(openclaw\\.json\\), its token is OPENCLAW_GATEWAY_TOKEN in \\.env\\. Its CLI is installed \\(version 2026\\.9\\.6\\)\\.`));
  assert.match(text, /The steps below stay available if you want a fresh gateway\./);
  // The card comes first; the install and configure steps are still there below it.
  await page.getByRole('region', { name: /Install the gateway CLI/ }).waitFor();
  assert.deepEqual(await axeSerious(page), []);

  await found.getByRole('button', { name: 'Connect to it' }).click();
  const connected = card(page, new RegExp(`^svc is connected to the gateway running on port ${gwPort}$`));
  await connected.getByText(`Connected: svc now uses the gateway at ws://localhost:${gwPort}.`).waitFor();
  const health = (await (await fetch(`${svc.base}/api/health/recheck`, { method: 'POST' })).json()) as { checks: Array<{ id: string; ok: boolean }> };
  assert.equal(health.checks.find((c) => c.id === 'gatewayReachable')?.ok, true);
  assert.deepEqual(await axeSerious(page), []);
});

void test('Issue 30 #5: the existing-gateway card at 390 x 844 in dark: no sideways scroll, axe clean', async (t) => {
  const svc = await svcBesideTheirGateway(t);
  const { page } = await openPage(t, browser(), { colorScheme: 'dark', viewport: { width: 390, height: 844 } });
  await page.goto(`${svc.base}/setup`);
  const found = card(page, new RegExp(`^A gateway is already running on port ${gwPort}$`));
  await found.getByRole('button', { name: 'Connect to it' }).waitFor();
  assert.equal(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth'), true, 'no horizontal scroll');
  const overflow = await page.evaluate<number>('(() => { const m = document.querySelector("main"); return m ? m.scrollWidth - m.clientWidth : 0; })()');
  assert.ok(overflow <= 0, `main overflows sideways by ${overflow}px`);
  assert.deepEqual(await axeSerious(page), []);
});

void test('Issue 30 #6: on Node 20, "Install Node 24 for the gateway" runs the real install with its live log, and the Node step is done', { skip: managedNodeSpec() === null ? 'npm has no Node 24 for this platform' : false, timeout: INSTALL_WAIT_MS + 60_000 }, async (t) => {
  const svc = await startSvc(t, { home: tempHome('svc-ui-node-') });
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/setup`);
  const nodeStep = page.getByRole('region', { name: /Check Node\.js/ });
  await nodeStep.getByText(/svc can install Node 24 for the gateway into its own folder/).waitFor();
  assert.match((await nodeStep.textContent()) ?? '', /To do/);
  await nodeStep.getByRole('button', { name: 'Install Node 24 for the gateway' }).click();
  await nodeStep.getByText(/^Install Node 24 for the gateway succeeded\. Done: version v24\.\d+\.\d+\.$/).waitFor({ timeout: INSTALL_WAIT_MS });
  const log = (await page.getByRole('log', { name: 'Install Node 24 for the gateway log' }).textContent()) ?? '';
  assert.match(log, /added \d+ package/);
  // The step moves on: status now describes svc's own Node 24 for the gateway.
  await nodeStep.getByText('Done', { exact: true }).waitFor();
  assert.match((await nodeStep.textContent()) ?? '', /Node v24\.\d+\.\d+ \(.*runtime\/node24\/.*\), installed by svc for the gateway, fits the gateway/);
  assert.equal(await nodeStep.getByRole('button', { name: 'Install Node 24 for the gateway' }).count(), 0);
});
