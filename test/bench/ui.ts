// The dashboard (issue 18), in headless Chromium against the production build
// (svc from dist/, the UI from ui/dist) with the stub gateway
// (fixtures/stub-gateway.ts) answering the team's runs:
// (1) bundle: the entry (script, CSS and static imports) and the largest lazy
//     chunk, KB gzip; target: entry <= 150 KB.
// (2) time to interactive of the team chat page from a cold load (a fresh
//     context each time: no cache): navigation timing's domInteractive, and
//     the moment the composer is usable with the transcript rendered, against
//     the shell alone (an unknown route) cold-loaded in the same run.
// (3) a 1,000-entry transcript: the page scrolled top to bottom and back
//     while counting requestAnimationFrame callbacks; target: every
//     1-second window at >= 30 fps.
// (4) a run that streams 200 deltas a second for 5 s (the full running text,
//     as the gateway sends it) into the open page; same target. The baseline
//     for (3) and (4) is the same page idle, measured in the same run.
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { checkBudget, ENTRY_BUDGET_KB } from '../../ui/budget.mjs';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../helpers/browser.ts';
import { REPO_ROOT } from '../helpers/server.ts';
import { createTeam, nextSend, startWithStub, type BenchTeam } from './fixtures/team-chat-setup.ts';
import { httpRequest } from './lib/http.ts';
import { fmt, median, sleep } from './lib/stats.ts';
import type { Benchmark, BenchResult } from './lib/types.ts';

const ENTRIES = 1000;
const COLD_LOADS = 5;
const DELTAS_PER_S = 200;
const DELTA_SECONDS = 5;
const TARGET_FPS = 30;

const line = (ok: boolean, text: string) => console.log(`  ${ok ? 'PASS' : 'FAIL'}: ${text}`);

async function seedTranscript(port: number, team: BenchTeam): Promise<void> {
  const sessionKey = team.sessionKeys[0] as string;
  const t0 = Date.now() - ENTRIES * 1000;
  const entries = Array.from({ length: ENTRIES }, (_, i) => {
    const user = i % 2 === 0;
    return {
      entryId: `bench-${i}`,
      role: user ? 'user' : 'assistant',
      kind: user ? 'user' : 'message',
      text: user ? `Question ${i}: what is next on the importer?` : `Answer ${i}: `.padEnd(240, 'the importer needs a parser, a mapper and tests; '),
      sessionKey,
      runId: user ? null : `bench-run-${i}`,
      source: user ? 'local-send' : 'team-chat',
      timestampMs: t0 + i * 1000,
      sequenceKey: i,
      confirmed: true,
      fingerprint: `bench-${i}`,
      teamId: team.id,
      agentId: team.leadId,
    };
  });
  const r = await httpRequest(port, '/api/chat-history', { method: 'POST', body: JSON.stringify({ sessionKey, entries }) });
  if (r.status !== 200) throw new Error(`seeding the transcript: HTTP ${r.status} ${r.body.slice(0, 200)}`);
}

/**
 * Resolves with performance.now() in the page at the first animation frame
 * where `js` holds. The expression is part of the evaluated source (CDP
 * evaluation), never eval'ed in the page: its CSP forbids eval.
 */
const until = (page: Page, js: string): Promise<number> =>
  page.evaluate<number>(`new Promise((resolve) => { const check = () => ((${js}) ? resolve(performance.now()) : requestAnimationFrame(check)); check(); })`);

interface Load {
  domInteractive: number;
  ready: number;
}

/** A cold load (fresh context) of `url`; `ready` is when `readyJs` first holds, in ms since navigation start. */
async function coldLoad(browser: Browser, url: string, readyJs: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    const ready = await until(page, readyJs);
    const domInteractive = await page.evaluate<number>("performance.getEntriesByType('navigation')[0].domInteractive");
    return { domInteractive, ready: Number(ready) };
  } finally {
    await context.close();
  }
}

/** Starts counting animation frames in the page (a new generation stops any earlier counter). */
const startFrames = (page: Page) =>
  page.evaluate(
    'window.__frames = []; const gen = (window.__frameGen = (window.__frameGen || 0) + 1); ' +
      '(function tick(t) { if (window.__frameGen !== gen) return; window.__frames.push(t); requestAnimationFrame(tick); })(performance.now())',
  );

/** Stops counting; the frames per second of each whole 1-second window, and the longest gap (ms). */
async function stopFrames(page: Page): Promise<{ windows: number[]; longestGap: number }> {
  const frames = await page.evaluate<number[]>('window.__frameGen += 1; window.__frames');
  const start = frames[0] ?? 0;
  const seconds = Math.floor(((frames[frames.length - 1] ?? 0) - start) / 1000);
  const windows = Array.from({ length: seconds }, (_, s) => frames.filter((f) => f >= start + s * 1000 && f < start + (s + 1) * 1000).length);
  let longestGap = 0;
  for (let i = 1; i < frames.length; i++) longestGap = Math.max(longestGap, (frames[i] as number) - (frames[i - 1] as number));
  return { windows, longestGap };
}

const fpsLine = (f: { windows: number[]; longestGap: number }) =>
  `min ${fmt(Math.min(...f.windows))} fps, median ${fmt(median(f.windows))} fps over ${f.windows.length} s; longest frame gap ${fmt(f.longestGap, 1)} ms`;

export const uiBench: Benchmark = {
  name: 'ui',
  async run(): Promise<BenchResult> {
    const budget = checkBudget(join(REPO_ROOT, 'ui', 'dist'));
    const bundleOk = budget.entryKb <= ENTRY_BUDGET_KB && budget.problems.length === 0;
    line(bundleOk, `bundle: entry ${fmt(budget.entryKb, 1)} KB gzip (budget ${ENTRY_BUDGET_KB}), largest lazy chunk ${fmt(budget.largestLazyKb, 1)} KB gzip, ${budget.lazy.length} lazy chunks`);

    const { stub, svc } = await startWithStub();
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS] });
    try {
      const team = await createTeam(svc.port, 'Bench team', 2);
      await seedTranscript(svc.port, team);
      const base = `http://127.0.0.1:${svc.port}`;
      const chatUrl = `${base}/teams/${team.id}`;
      const chatReady = `document.querySelector('#composer-input') && document.body.textContent.includes('Answer ${ENTRIES - 1}:')`;
      const shellReady = `[...document.querySelectorAll('h1')].some((h) => h.textContent === 'Page not found')`;
      const chat: Load[] = [];
      const shell: Load[] = [];
      for (let i = 0; i < COLD_LOADS; i++) {
        shell.push(await coldLoad(browser, `${base}/no-such-page`, shellReady));
        chat.push(await coldLoad(browser, chatUrl, chatReady));
      }
      const tti = median(chat.map((l) => l.ready));
      const shellTti = median(shell.map((l) => l.ready));
      console.log(
        `  cold load, median of ${COLD_LOADS}: team chat with ${fmt(ENTRIES)} entries usable at ${fmt(tti)} ms (domInteractive ${fmt(median(chat.map((l) => l.domInteractive)))} ms); ` +
          `shell alone ${fmt(shellTti)} ms (domInteractive ${fmt(median(shell.map((l) => l.domInteractive)))} ms); ratio ${fmt(tti / shellTti, 2)}`,
      );

      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(chatUrl);
      await until(page, chatReady);
      const rendered = await page.evaluate<number>("document.querySelectorAll('[role=log] > *, [role=log] li').length");
      await startFrames(page);
      await sleep(3100);
      const idle = await stopFrames(page);
      console.log(`  idle page (baseline): ${fpsLine(idle)}`);

      await startFrames(page);
      const scroller = "(() => { const els = [...document.querySelectorAll('*')].filter((e) => e.scrollHeight > e.clientHeight + 100 && getComputedStyle(e).overflowY !== 'visible'); return els.sort((a, b) => b.scrollHeight - a.scrollHeight)[0]; })()";
      for (let step = 0; step <= 60; step++) {
        await page.evaluate(`(() => { const el = ${scroller}; if (el) el.scrollTop = el.scrollHeight * ${Math.abs(30 - step) / 30}; })()`);
        await sleep(50);
      }
      const scroll = await stopFrames(page);
      const scrollOk = Math.min(...scroll.windows) >= TARGET_FPS;
      line(scrollOk, `${fmt(ENTRIES)}-entry transcript (${fmt(rendered)} elements rendered), scrolled top and back for 3 s: ${fpsLine(scroll)}`);

      const label = 'bench: stream 200 deltas a second';
      const sent = nextSend(stub, (s) => s.userText === label && s.teamId === team.id, label);
      const posted = await httpRequest(svc.port, `/api/teams/${team.id}/chat`, { method: 'POST', body: JSON.stringify({ message: label }) });
      if (posted.status !== 202) throw new Error(`POST chat: HTTP ${posted.status}`);
      const send = await sent;
      await startFrames(page);
      const total = DELTAS_PER_S * DELTA_SECONDS;
      const t0 = performance.now();
      let text = '';
      for (let k = 1; k <= total; k++) {
        text += `token${k} `;
        stub.delta(send.runId, text);
        const due = t0 + (k * 1000) / DELTAS_PER_S;
        const wait = due - performance.now();
        if (wait > 1) await sleep(wait);
      }
      const playedS = (performance.now() - t0) / 1000;
      const finalText = `${text}done`;
      stub.final(send.runId, finalText);
      await until(page, `document.body.textContent.includes('token${total} done')`);
      const deltas = await stopFrames(page);
      const deltaOk = Math.min(...deltas.windows) >= TARGET_FPS;
      line(deltaOk, `${fmt(total)} deltas in ${fmt(playedS, 2)} s (${fmt(total / playedS)} a second), up to ${fmt(text.length)} characters, until the committed reply showed: ${fpsLine(deltas)}`);
      await context.close();

      const minIdle = Math.min(...idle.windows);
      return {
        name: 'ui',
        figures: `entry ${fmt(budget.entryKb, 1)} KB, lazy max ${fmt(budget.largestLazyKb, 1)} KB; chat TTI ${fmt(tti)} ms; fps min scroll ${fmt(Math.min(...scroll.windows))} / deltas ${fmt(Math.min(...deltas.windows))}`,
        ratio: `TTI ${fmt(tti / shellTti, 2)}× shell; fps ${fmt(Math.min(...deltas.windows) / minIdle, 2)}× idle`,
        target: `entry <= ${ENTRY_BUDGET_KB} KB; >= ${TARGET_FPS} fps`,
        pass: bundleOk && scrollOk && deltaOk,
      };
    } finally {
      await browser.close();
      await svc.stop();
      await stub.close();
    }
  },
};
