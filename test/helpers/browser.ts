// Browser tests (issue 18): Debian's chromium driven by playwright-core, one
// browser per test file, a fresh context per test, against the production
// build of the UI (ui/dist, built by `npm test`'s pretest) served by a real
// svc on a free loopback port with a temporary SVC_HOME.
//
// Every page a test opens is watched: a page error, a console error, a failed
// request (an aborted stream or fetch while navigating aside) or an HTML
// answer on /api fails the test when it ends.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from '../install-chromium.mjs';
import { startServer, stopAfter, type RunningServer, type StartOptions } from './server.ts';

export { CHROMIUM_PATH };
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

type TestContext = { after(fn: () => Promise<void> | void): void; name: string };

/** Launches chromium once for the file (node:test before/after); returns a getter for it. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  before(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS] });
  });
  after(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is not launched yet (call useBrowser() at the top of the file)');
    return browser;
  };
}

/**
 * svc for a browser test: started from the source with the built UI, stopped
 * (by PID) when the test ends. SVC_TEST_UI_DIST serves another build (one
 * made with `node ui/build.mjs --outDir <dir>`) instead of ui/dist.
 * `keepHome`: see stopAfter (a home shared with the file's gateway is left
 * to the gateway's close).
 */
export async function startSvc(t: TestContext, opts: StartOptions & { keepHome?: boolean } = {}): Promise<RunningServer> {
  const uiDist = process.env.SVC_TEST_UI_DIST;
  const env = uiDist ? { SVC_UI_DIST: uiDist, ...opts.env } : opts.env;
  const svc = await startServer({ ...opts, env });
  // Hooks run in the order they were added: the test's pages close before
  // svc stops, so a page that polls (the shell's badges) never sees it go.
  t.after(async () => {
    for (const c of contextsOf.get(t) ?? []) await c.close();
  });
  return stopAfter(t, svc, { keepHome: opts.keepHome });
}

/** The browser contexts each test opened (closed before that test's svc stops). */
const contextsOf = new WeakMap<TestContext, Set<BrowserContext>>();

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** What went wrong on the page so far (page errors, console errors, failed requests, HTML on /api). */
  problems: string[];
  /** Ignore problems matching this from now on (a test that provokes an error on purpose says so). */
  allow(match: RegExp): void;
}

export interface PageOptions {
  /** 'light' | 'dark' for prefers-color-scheme (default light). */
  colorScheme?: 'light' | 'dark';
  viewport?: { width: number; height: number };
}

/** A fresh context and page for this test; closed, and checked for problems, when the test ends. */
export async function openPage(t: TestContext, browser: Browser, opts: PageOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext({
    colorScheme: opts.colorScheme ?? 'light',
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    reducedMotion: 'reduce',
  });
  if (!contextsOf.has(t)) contextsOf.set(t, new Set());
  contextsOf.get(t)?.add(context);
  const page = await context.newPage();
  const problems: string[] = [];
  const allowed: RegExp[] = [];
  const note = (p: string) => {
    if (!allowed.some((re) => re.test(p))) problems.push(p);
  };
  page.on('pageerror', (err) => note(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') note(`console error: ${msg.text()} (${msg.location().url})`);
  });
  page.on('requestfailed', (req) => {
    const failure = req.failure()?.errorText ?? 'failed';
    // Leaving a page aborts its streams and in-flight fetches: expected, not a failure.
    if (failure.includes('ERR_ABORTED')) return;
    note(`request failed: ${req.method()} ${req.url()} (${failure})`);
  });
  page.on('response', (res) => {
    const url = new URL(res.url());
    if (!url.pathname.toLowerCase().startsWith('/api')) return;
    const type = res.headers()['content-type'] ?? '';
    if (type.includes('text/html')) note(`HTML answer on ${url.pathname} (${res.status()})`);
  });
  t.after(async () => {
    await context.close();
    if (problems.length > 0) throw new Error(`the page had problems:\n  ${problems.join('\n  ')}`);
  });
  return { page, context, problems, allow: (re) => void allowed.push(re) };
}

const require = createRequire(import.meta.url);
let axeSource: string | undefined;

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Runs axe-core on the page; returns the serious and critical findings (an empty list is a pass). */
export async function axeSerious(page: Page): Promise<AxeFinding[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated over the DevTools protocol, not as an inline <script>: the page's CSP stays as users get it.
  await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const r = await axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => JSON.stringify(n.target)) }));
  });
  return results.filter((f) => f.impact === 'serious' || f.impact === 'critical');
}
