// Issue 31 item 7 in a real browser: the Gateway page's "Tool-loop
// detection" section shows OpenClaw's `tools.loopDetection` for every agent
// as the gateway's config holds it (the global value, an agent's own override
// winning over it, OpenClaw's default off), read from the config file while
// svc is not connected, with the switches disabled and the reason said. The
// switch itself writes through the running gateway's config.patch:
// test/gateway/runaway.test.ts. axe in light and dark.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { axeSerious, openPage, startSvc, useBrowser } from '../helpers/browser.ts';
import { tempHome } from '../helpers/server.ts';

const browser = useBrowser();

void test('Runaway (issue 31, item 7): the Gateway page shows the gateway\'s tool-loop detection per agent; not connected, read only and says why', async (t) => {
  const home = tempHome('svc-ui-loop-');
  const stateDir = join(home, 'gateway-state');
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(
    join(stateDir, 'openclaw.json'),
    JSON.stringify({
      tools: { loopDetection: { enabled: true } },
      agents: { entries: { main: {}, quiet: { tools: { loopDetection: { enabled: false } } } } },
    }),
  );
  const svc = await startSvc(t, { home, env: { OPENCLAW_STATE_DIR: stateDir } });

  for (const colorScheme of ['light', 'dark'] as const) {
    const { page } = await openPage(t, browser(), { colorScheme });
    await page.goto(`${svc.base}/gateway`);
    const section = page.getByRole('region', { name: 'Tool-loop detection' });
    const all = section.getByRole('switch', { name: /For every agent/ });
    await all.waitFor();
    assert.equal(await all.isChecked(), true);
    const list = section.getByRole('list', { name: 'Tool-loop detection per agent' });
    const main = list.getByRole('switch', { name: /^main/ });
    const quiet = list.getByRole('switch', { name: /^quiet/ });
    assert.equal(await main.isChecked(), true);
    assert.equal(await quiet.isChecked(), false);
    await list.getByText('On (from the global setting)').waitFor();
    await list.getByText('Off (set for this agent)').waitFor();
    for (const s of [all, main, quiet]) assert.equal(await s.isDisabled(), true);
    await section.getByText(/connect svc to the gateway to switch it/).waitFor();
    assert.deepEqual(await axeSerious(page), [], `axe (${colorScheme})`);
  }
});
