// The screenshot script's capture (test/helpers/screenshots.ts), run into a
// temporary folder: every page in light and dark renders its heading, stops
// loading and is captured with no page error, console error, failed request
// or HTML on /api.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openPage, startSvc, useBrowser } from '../helpers/browser.ts';
import { captureScreenshots, seedForScreenshots } from '../helpers/screenshots.ts';

const browser = useBrowser();

void test('Dashboard (issue 18, screenshots): every page, light and dark, is captured from a seeded home with no problem on the page', async (t) => {
  const svc = await startSvc(t);
  const dir = mkdtempSync(join(tmpdir(), 'svc-shots-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { shots } = await seedForScreenshots(svc.base, svc.home);
  // A watched page first, over every route: problems fail the test (openPage's check).
  const { page } = await openPage(t, browser());
  for (const shot of shots) {
    await page.goto(`${svc.base}${shot.path}`);
    await page.locator('h1').first().waitFor();
  }
  const files = await captureScreenshots(browser(), svc.base, shots, dir);
  assert.equal(files.length, shots.length * 2);
  for (const f of files) assert.ok(existsSync(f) && statSync(f).size > 1000, `${f} is a real image`);
});
