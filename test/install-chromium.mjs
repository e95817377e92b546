// Makes sure the browser tests have Debian's chromium (playwright-core drives
// it; `npx playwright install` cannot download here). Installs it with
// apt-get when it is missing and this is root on a Debian-like system, so
// `npm test` on a fresh machine needs nothing else; otherwise says what to
// run. SVC_TEST_CHROMIUM points at another build (nothing is installed then).
// Usage: node test/install-chromium.mjs (also called by test/run.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const CHROMIUM_PATH = process.env.SVC_TEST_CHROMIUM ?? '/usr/bin/chromium';

/** Returns null when chromium is there (or was installed now), else why not. */
export function ensureChromium() {
  if (existsSync(CHROMIUM_PATH)) return null;
  if (process.env.SVC_TEST_CHROMIUM) return `SVC_TEST_CHROMIUM=${CHROMIUM_PATH} does not exist`;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;
  if (!root || !apt) return `the browser tests need chromium at ${CHROMIUM_PATH}: install it (Debian: sudo apt-get install -y chromium)`;
  console.log('test: installing chromium (Debian package) for the browser tests');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (r.status !== 0) return `apt-get ${args.join(' ')} failed (exit ${r.status})`;
  }
  return existsSync(CHROMIUM_PATH) ? null : `apt-get installed chromium but ${CHROMIUM_PATH} is missing`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problem = ensureChromium();
  if (problem) {
    console.error(`test: ${problem}`);
    process.exit(1);
  }
}
