// Screenshots of every dashboard page, light and dark (issue 18): the same
// harness as the browser tests (chromium, the production build, a real svc
// on loopback) over a home seeded through svc's own HTTP API as a person's
// would be — a team with a lead and a member, rules, an onboarding done, a
// short conversation and tasks on the board. `npm run screenshots` writes
// them to docs/screenshots/; test/browser/screenshots.browser.test.ts runs
// the same capture into a temporary folder so it cannot rot.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { spend } from './spend.ts';
import { call, createTeam, teamKey } from './team-chat-api.ts';

export interface Shot {
  /** File name without the theme suffix. */
  name: string;
  path: string;
}

export interface Seeded {
  teamId: string;
  shots: Shot[];
}

const LEAD = { id: 'ada', name: 'Ada' };
const MEMBER = { id: 'lin', name: 'Lin' };

async function ok(base: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const r = await call(base, method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Seeds the home through the HTTP API (and spend through the ledger on `home`'s database); returns the pages to capture. */
export async function seedForScreenshots(base: string, home: string): Promise<Seeded> {
  const teamId = await createTeam(base, 'Launch crew', [LEAD, MEMBER], LEAD.id);
  await ok(base, 'PUT', `/api/team-rules/${teamId}`, { text: 'Answer briefly. Put decisions on the board.' });
  await ok(base, 'PATCH', `/api/teams/${teamId}/onboarding`, {
    agentsIntroduced: true,
    userIntroduced: true,
    userIntroText: 'I run a small product team; short answers with the reasoning, please.',
  });
  const now = Date.now();
  const childKey = `agent:${MEMBER.id}:subagent:5a1f3c2e-0b7d-4e55-9a1c-3f2b8d6e7a10`;
  const entry = (i: number, role: 'user' | 'assistant', agentId: string, text: string) => ({
    entryId: `shot-${i}`,
    role,
    kind: role === 'user' ? 'user' : 'message',
    text,
    sessionKey: teamKey(LEAD.id, teamId),
    runId: role === 'user' ? null : `run-shot-${i}`,
    source: role === 'user' ? 'local-send' : 'team-chat',
    timestampMs: now - (10 - i) * 60_000,
    sequenceKey: i,
    confirmed: true,
    fingerprint: `shot-${i}`,
    teamId,
    agentId,
  });
  await ok(base, 'POST', '/api/chat-history', {
    sessionKey: teamKey(LEAD.id, teamId),
    entries: [
      entry(1, 'user', LEAD.id, 'What should we ship first: the importer or the export?'),
      entry(2, 'assistant', LEAD.id, 'The importer: three customers are waiting on it. I put a task on the board for Lin.'),
      entry(3, 'user', LEAD.id, '@Ada good, and the export after that.'),
      // A native sub-agent at work (its reply would come under its own key; the page shows the hand-over as working).
      {
        ...entry(4, 'assistant', LEAD.id, 'Ada handed “Compare export formats” to Lin'),
        entryId: `spawn-${childKey}`,
        role: 'system',
        kind: 'meta',
        runId: 'run-shot-4',
        trigger: 'spawn',
        childSessionKey: childKey,
        label: 'Compare export formats',
      },
    ],
  });
  for (const [title, status] of [
    ['Build the CSV importer', 'in_progress'],
    ['Write the export spec', 'todo'],
    ['Pick a date for the beta', 'done'],
  ] as const) {
    const created = await ok(base, 'POST', '/api/tasks', { title, teamId, assigneeAgentId: MEMBER.id });
    const { id } = created.task as { id: string };
    if (status === 'done') await ok(base, 'PATCH', `/api/tasks/${id}`, { status: 'in_progress' });
    if (status !== 'todo') await ok(base, 'PATCH', `/api/tasks/${id}`, { status });
  }
  // Budgets: a monthly global cap, the team's daily cap (reached: paused), a warn budget on the member.
  await ok(base, 'POST', '/api/governance/budgets', { scope: 'global', scopeId: 'all', limitUsdCents: 5000, mode: 'cap', period: 'monthly' });
  await ok(base, 'POST', '/api/governance/budgets', { scope: 'team', scopeId: teamId, limitUsdCents: 1000, mode: 'cap', period: 'daily' });
  await ok(base, 'POST', '/api/governance/budgets', { scope: 'agent', scopeId: MEMBER.id, limitUsdCents: 500, mode: 'warn' });
  spend(home, { agentId: LEAD.id, teamId }, 6.4);
  spend(home, { agentId: MEMBER.id, teamId }, 4.2);
  const shots: Shot[] = [
    { name: 'setup', path: '/setup' },
    { name: 'teams', path: '/teams' },
    { name: 'team-chat', path: `/teams/${teamId}` },
    { name: 'team-settings', path: `/teams/${teamId}/settings` },
    { name: 'team-board', path: `/teams/${teamId}/board` },
    { name: 'board', path: '/board' },
    { name: 'approvals', path: '/approvals' },
    { name: 'budgets', path: '/budgets' },
    { name: 'gateway', path: '/gateway' },
    { name: 'settings', path: '/settings' },
  ];
  return { teamId, shots };
}

/** Waits until the page shows its heading and nothing is loading any more. */
async function settled(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor();
  await page.getByRole('status').filter({ hasText: /^Loading/ }).first().waitFor({ state: 'detached' }).catch((err: Error) => {
    throw new Error(`${page.url()} kept loading: ${err.message}`);
  });
}

/** Captures every page in light and dark into `dir`; returns the files written. */
export async function captureScreenshots(browser: Browser, base: string, shots: readonly Shot[], dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    try {
      const page = await context.newPage();
      for (const shot of shots) {
        await page.goto(`${base}${shot.path}`);
        await settled(page);
        const file = join(dir, `${shot.name}-${scheme}.png`);
        await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
        files.push(file);
      }
    } finally {
      await context.close();
    }
  }
  return files;
}
