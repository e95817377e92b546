// `npm run screenshots`: every dashboard page, light and dark, into
// docs/screenshots/ (test/helpers/screenshots.ts says how). Needs the build
// (`npm run build`) and Debian's chromium, as the browser tests do.
import { chromium } from 'playwright-core';
import { join } from 'node:path';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../helpers/browser.ts';
import { captureScreenshots, seedForScreenshots } from '../helpers/screenshots.ts';
import { REPO_ROOT, removeHome, startServer } from '../helpers/server.ts';

const svc = await startServer();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS] });
try {
  const { shots } = await seedForScreenshots(svc.base, svc.home);
  const files = await captureScreenshots(browser, svc.base, shots, join(REPO_ROOT, 'docs', 'screenshots'));
  console.log(`screenshots: wrote ${files.length} files to docs/screenshots/`);
} finally {
  await browser.close();
  await svc.stop();
  removeHome(svc.home);
}
