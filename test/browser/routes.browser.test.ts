// Journey 9 (issue 18): every client route deep-links and reloads to its
// page, and back and forward keep the teams and board filters. The routes
// come from ui/src/app/routes.tsx, so a route added there without a line
// here fails this test. For other engineers' pages only the <h1> is asserted.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openPage, startSvc, useBrowser } from '../helpers/browser.ts';
import { REPO_ROOT } from '../helpers/server.ts';
import { call } from '../helpers/team-chat-api.ts';

const browser = useBrowser();

/** Route pattern to [the address opened, the <h1> it shows]. `/` is not a page: it sends a fresh machine to setup. */
const PAGES = (teamId: string): Record<string, [string, string]> => ({
  '/': ['/', 'Set up svc'],
  '/setup': ['/setup', 'Set up svc'],
  '/teams': ['/teams', 'Teams'],
  '/teams/:id': [`/teams/${teamId}`, 'Crew'],
  '/teams/:id/settings': [`/teams/${teamId}/settings`, 'Team settings'],
  '/teams/:id/board': [`/teams/${teamId}/board`, 'Board'],
  '/board': ['/board', 'Board'],
  '/approvals': ['/approvals', 'Approvals'],
  '/budgets': ['/budgets', 'Budgets'],
  '/runs/:runId': ['/runs/run-1', 'Run trace'],
  '/gateway': ['/gateway', 'Gateway'],
  '/settings': ['/settings', 'Settings and health'],
});

function clientRoutes(): string[] {
  const src = readFileSync(join(REPO_ROOT, 'ui/src/app/routes.tsx'), 'utf8');
  return [...src.matchAll(/\{ path: '([^']+)'/g)].map((m) => m[1] as string);
}

void test('Dashboard (issue 18, journey 9): every client route deep-links and reloads to its page', async (t) => {
  const svc = await startSvc(t);
  const team = await call<{ team: { id: string } }>(svc.base, 'POST', '/api/teams', { name: 'Crew', icon: '🧪', color: '#336699' });
  const pages = PAGES(team.body.team.id);
  assert.deepEqual(clientRoutes().sort(), Object.keys(pages).sort(), 'every route in routes.tsx has a line here');
  const { page } = await openPage(t, browser());
  for (const [route, [address, h1]] of Object.entries(pages)) {
    await t.test(route, async () => {
      await page.goto(`${svc.base}${address}`);
      await page.getByRole('heading', { level: 1, name: h1, exact: true }).waitFor();
      await page.reload();
      await page.getByRole('heading', { level: 1, name: h1, exact: true }).waitFor();
      assert.equal(await page.getByRole('heading', { name: 'Page not found' }).count(), 0);
      assert.equal(await page.getByText('This page failed').count(), 0);
    });
  }
});

void test('Dashboard (issue 18, journey 9): back and forward keep the teams and board filters', async (t) => {
  const svc = await startSvc(t);
  const live = await call<{ team: { id: string } }>(svc.base, 'POST', '/api/teams', { name: 'Live crew', icon: '🧪', color: '#336699' });
  const old = await call<{ team: { id: string } }>(svc.base, 'POST', '/api/teams', { name: 'Old crew', icon: '🧪', color: '#336699' });
  await call(svc.base, 'PATCH', `/api/teams/${old.body.team.id}`, { isArchived: 1 });
  await call(svc.base, 'POST', '/api/tasks', { title: 'Live task', teamId: live.body.team.id });
  await call(svc.base, 'POST', '/api/tasks', { title: 'Old task', teamId: old.body.team.id });
  const { page } = await openPage(t, browser());

  await page.goto(`${svc.base}/teams`);
  await page.getByRole('heading', { name: 'Live crew' }).waitFor();
  await page.getByLabel('Show archived').check();
  await page.getByRole('heading', { name: 'Old crew' }).waitFor();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Board' }).click();
  await page.getByRole('heading', { level: 1, name: 'Board' }).waitFor();
  await page.getByRole('button', { name: /^Old task / }).waitFor();
  await page.getByLabel('Team').selectOption({ label: 'Live crew' });
  await page.getByRole('button', { name: /^Old task / }).waitFor({ state: 'detached' });
  await page.getByLabel('Status').selectOption({ label: 'To do' });
  await page.waitForURL(/status=todo/);

  await page.goBack();
  await page.waitForURL((u) => u.pathname === '/board' && !u.search.includes('status='));
  assert.equal(await page.getByLabel('Team').inputValue(), live.body.team.id);
  assert.equal(await page.getByLabel('Status').inputValue(), '');
  await page.goBack();
  await page.waitForURL((u) => u.pathname === '/board' && u.search === '');
  await page.getByRole('button', { name: /^Old task / }).waitFor();
  await page.goBack();
  await page.waitForURL((u) => u.pathname === '/teams');
  await page.getByRole('heading', { name: 'Old crew' }).waitFor();
  assert.equal(await page.getByLabel('Show archived').isChecked(), true);
  await page.goBack();
  await page.waitForURL((u) => u.pathname === '/teams' && u.search === '');
  await page.getByRole('heading', { name: 'Old crew' }).waitFor({ state: 'detached' });
  assert.equal(await page.getByLabel('Show archived').isChecked(), false);

  await page.goForward();
  await page.getByRole('heading', { name: 'Old crew' }).waitFor();
  await page.goForward();
  await page.waitForURL((u) => u.pathname === '/board' && u.search === '');
  await page.goForward();
  await page.waitForURL(/team=/);
  await page.goForward();
  await page.waitForURL(/status=todo/);
  assert.equal(await page.getByLabel('Team').inputValue(), live.body.team.id);
  assert.equal(await page.getByLabel('Status').inputValue(), 'todo');
  await page.getByRole('button', { name: /^Live task / }).waitFor();
});
