// The budgets page in a real browser against a real svc (issue 22, item 7;
// brief D): create and edit by keyboard with the server's 400 shown at its
// field, resume with and without grace (the willRepause warning), the
// empty state, axe in light and dark, and a phone's width. Spend is seeded
// through the real ledger on svc's database file (shared/budgets,
// recordSpend: the fallback metering path the team-chat worker uses), so the
// rows the page reads are rows the server computed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { BudgetRow } from '../../shared/budgets/schemas.ts';
import { axeSerious, openPage, startSvc, useBrowser } from '../helpers/browser.ts';
import { spend } from '../helpers/spend.ts';
import { call } from '../helpers/team-chat-api.ts';
import { waitFor } from '../helpers/wait.ts';

const browser = useBrowser();
const S = 'Budgets (issue 22, item 7)';

const listBudgets = async (base: string) => (await call<BudgetRow[]>(base, 'GET', '/api/governance/budgets')).body;

async function seedTeam(base: string, name: string): Promise<string> {
  const r = await call<{ team: { id: string } }>(base, 'POST', '/api/teams', { name, icon: '🧪', color: '#336699' });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.team.id;
}

async function seedBudget(base: string, body: Record<string, unknown>): Promise<BudgetRow> {
  const r = await call<BudgetRow>(base, 'POST', '/api/governance/budgets', body);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
}

/** The focused control: its <label for> text and its tag. */
const focused = (page: Page) =>
  page.evaluate<{ label: string; tag: string }>(
    `(() => { const el = document.activeElement; return { label: el && el.id ? (document.querySelector('label[for="' + el.id + '"]')?.textContent ?? '') : '', tag: el?.tagName ?? '' }; })()`,
  );

void test(`${S}: create by keyboard only, the server's 400 shown at its field; then edit the limit and the mode`, async (t) => {
  const svc = await startSvc(t);
  const teamId = await seedTeam(svc.base, 'Ops');
  const { page, allow } = await openPage(t, browser());
  allow(/status of 400/);
  await page.goto(`${svc.base}/budgets`);
  await page.getByText('No budgets yet').waitFor();

  // The nav has the entry, marked as the current page.
  assert.equal(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Budgets' }).getAttribute('aria-current'), 'page');

  await page.getByRole('button', { name: 'New budget' }).first().press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New budget' });
  await dialog.waitFor();
  assert.deepEqual(await focused(page), { label: 'Counts spend of', tag: 'SELECT' }, 'focus starts on the scope');
  // Scope: a board task (the fourth option), then its id, then the limit; Enter submits.
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
  assert.equal(await dialog.getByLabel('Counts spend of').inputValue(), 'task');
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).label, 'Task id');
  await page.keyboard.type('T-404');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).label, 'Limit (US dollars)');
  await page.keyboard.type('5');
  await page.keyboard.press('Enter');

  // The server's refusal sits under the task id, which takes the focus and is marked invalid.
  const taskId = dialog.getByLabel('Task id');
  await dialog.getByText('no such task').waitFor();
  assert.equal(await taskId.getAttribute('aria-invalid'), 'true');
  const described = (await taskId.getAttribute('aria-describedby')) ?? '';
  assert.equal(await page.locator(`[id="${described.split(' ')[0]}"]`).innerText(), 'no such task');
  await dialog.getByRole('alert').getByText('invalid budget').waitFor();
  assert.equal((await focused(page)).label, 'Task id');
  assert.deepEqual(await listBudgets(svc.base), [], 'a refused create changes nothing');

  // A limit that is not an amount is refused in the field before any request.
  await page.keyboard.press('Shift+Tab');
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowUp');
  assert.equal(await dialog.getByLabel('Counts spend of').inputValue(), 'team');
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).label, 'Team');
  await page.keyboard.press('ArrowDown');
  assert.equal(await dialog.getByLabel('Team').inputValue(), teamId);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('five');
  await page.keyboard.press('Enter');
  await dialog.getByText('Enter an amount in dollars, like 25 or 12.50.').waitFor();
  assert.equal(await dialog.getByLabel('Limit (US dollars)').getAttribute('aria-invalid'), 'true');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('5');
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'hidden' });
  await page.getByText('Created Team “Ops”.').waitFor();

  let rows = await listBudgets(svc.base);
  assert.deepEqual(rows.map((r) => [r.scope, r.scopeId, r.model, r.limitUsdCents, r.mode, r.period, r.status]), [['team', teamId, null, 500, 'cap', 'none', 'active']]);
  const row = page.getByRole('row', { name: /Team “Ops”/ });
  const meter = row.getByRole('meter', { name: 'Spend of Team “Ops”' });
  assert.deepEqual(
    [await meter.getAttribute('aria-valuenow'), await meter.getAttribute('aria-valuemax'), await meter.getAttribute('aria-valuetext')],
    ['0', '500', '$0.00 of $5.00 (0 %)'],
  );
  await row.getByText('Active').filter({ visible: true }).waitFor();

  // Edit: a limit of 0 is the server's 400 at the limit field; 12.50 and Warn save.
  await page.getByRole('button', { name: 'Edit Team “Ops”' }).press('Enter');
  const edit = page.getByRole('dialog', { name: 'Edit budget' });
  await edit.waitFor();
  assert.equal(await edit.getByLabel('Counts spend of').isDisabled(), true, 'what a budget counts is its identity');
  // The target is fixed: focus starts on the (read-only) model, the next stop is the limit.
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).label, 'Limit (US dollars)');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('0');
  await page.keyboard.press('Enter');
  const limit = edit.getByLabel('Limit (US dollars)');
  await waitFor(async () => (await limit.getAttribute('aria-invalid')) === 'true', { what: 'the limit marked invalid by the server' });
  const limitError = await page.locator(`[id="${((await limit.getAttribute('aria-describedby')) ?? '').split(' ')[0]}"]`).innerText();
  assert.match(limitError, /too small|>0|positive/i);
  assert.equal((await listBudgets(svc.base))[0]?.limitUsdCents, 500, 'a refused edit changes nothing');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('12.50');
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown');
  assert.equal(await edit.getByRole('radio', { name: /^Warn/ }).isChecked(), true);
  await page.keyboard.press('Enter');
  await edit.waitFor({ state: 'hidden' });
  await page.getByText('Saved Team “Ops”.').waitFor();
  rows = await listBudgets(svc.base);
  assert.deepEqual(rows.map((r) => [r.limitUsdCents, r.mode, r.status]), [[1250, 'warn', 'active']]);
  await row.getByRole('cell', { name: 'Warn' }).waitFor();
  await waitFor(async () => (await meter.getAttribute('aria-valuetext')) === '$0.00 of $12.50 (0 %)', { what: 'the bar against the new limit' });
});

void test(`${S}: resume without grace warns that the next call pauses it again; with grace the budget has room`, async (t) => {
  const svc = await startSvc(t);
  const teamId = await seedTeam(svc.base, 'Ops');
  await seedBudget(svc.base, { scope: 'team', scopeId: teamId, limitUsdCents: 200, mode: 'cap' });
  spend(svc.home, { agentId: 'res', teamId }, 2.5);
  assert.equal((await listBudgets(svc.base))[0]?.status, 'paused');

  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/budgets`);
  const row = page.getByRole('row', { name: /Team “Ops”/ });
  await row.getByText('Paused').filter({ visible: true }).waitFor();
  assert.equal(await row.getByRole('meter').getAttribute('aria-valuetext'), '$2.50 of $2.00 (125 %)');

  await page.getByRole('button', { name: 'Resume Team “Ops”' }).press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Resume Team “Ops”' });
  await dialog.getByText('Spent $2.50 of $2.00.', { exact: false }).waitFor();
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'hidden' });
  await page.getByText('Resumed Team “Ops”.').waitFor();
  const warning = page.getByRole('alert').filter({ hasText: 'the next model call will pause it again' });
  assert.equal(
    await warning.innerText(),
    'Team “Ops” has spent $2.50 of its $2.00 limit: the next model call will pause it again. Raise the limit, or resume with grace.',
  );
  await row.getByText('Active').filter({ visible: true }).waitFor();
  assert.equal((await listBudgets(svc.base))[0]?.status, 'active');

  // The warning was true: the next spend pauses it again.
  spend(svc.home, { agentId: 'res', teamId }, 0.01);
  await page.reload();
  await row.getByText('Paused').filter({ visible: true }).waitFor();

  // With grace: no warning, and the bar measures against limit plus grace.
  await page.getByRole('button', { name: 'Resume Team “Ops”' }).click();
  await dialog.getByLabel('Grace (US dollars, optional)').fill('3');
  await dialog.getByRole('button', { name: 'Resume budget' }).click();
  await page.getByText('Resumed Team “Ops”.').waitFor();
  assert.equal(await warning.count(), 0);
  await row.getByText('Active').filter({ visible: true }).waitFor();
  await row.getByText('includes $3.00 grace').waitFor();
  const after = (await listBudgets(svc.base))[0];
  assert.deepEqual([after?.status, after?.graceUsdCents], ['active', 300]);
});

void test(`${S}: the empty state, every status, the dialogs: axe in light and dark, and a 390 px phone`, async (t) => {
  const svc = await startSvc(t);
  {
    const { page } = await openPage(t, browser());
    await page.goto(`${svc.base}/budgets`);
    await page.getByText('No budgets yet').waitFor();
    assert.deepEqual(await axeSerious(page), [], 'the empty state');
  }
  const teamId = await seedTeam(svc.base, 'Ops');
  assert.equal((await call(svc.base, 'POST', '/api/agents', { id: 'res', name: 'Researcher' })).status, 200);
  await seedBudget(svc.base, { scope: 'global', scopeId: 'all', limitUsdCents: 10_000, mode: 'warn', period: 'monthly' });
  await seedBudget(svc.base, { scope: 'team', scopeId: teamId, limitUsdCents: 100, mode: 'cap', period: 'daily' });
  await seedBudget(svc.base, { scope: 'agent', scopeId: 'res', limitUsdCents: 100, mode: 'warn', model: 'gpt-4o' });
  spend(svc.home, { agentId: 'res', teamId }, 1.2);
  spend(svc.home, { agentId: 'res', teamId: null, model: 'gpt-4o' }, 0.9);
  const statuses = (await listBudgets(svc.base)).map((r) => [r.scope, r.status, r.warnedPct]).sort();
  assert.deepEqual(statuses, [['agent', 'active', 80], ['global', 'active', 0], ['team', 'paused', 0]]);

  for (const colorScheme of ['light', 'dark'] as const) {
    const { page } = await openPage(t, browser(), { colorScheme });
    await page.goto(`${svc.base}/budgets`);
    await page.getByRole('row', { name: /Team “Ops”/ }).getByText('Paused').filter({ visible: true }).waitFor();
    await page.getByRole('row', { name: /Global/ }).getByRole('cell', { name: 'Monthly' }).waitFor();
    await page.getByRole('row', { name: /Agent Researcher for gpt-4o/ }).getByText('Warned at 80 %').filter({ visible: true }).waitFor();
    assert.deepEqual(await axeSerious(page), [], `the table (${colorScheme})`);
    await page.getByRole('button', { name: 'New budget' }).click();
    await page.getByRole('dialog', { name: 'New budget' }).waitFor();
    assert.deepEqual(await axeSerious(page), [], `the create dialog (${colorScheme})`);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Resume Team “Ops”' }).click();
    await page.getByRole('dialog', { name: 'Resume Team “Ops”' }).waitFor();
    assert.deepEqual(await axeSerious(page), [], `the resume dialog (${colorScheme})`);
  }

  const { page } = await openPage(t, browser(), { viewport: { width: 390, height: 844 } });
  await page.goto(`${svc.base}/budgets`);
  await page.getByRole('heading', { level: 1, name: 'Budgets' }).waitFor();
  // Neither the page nor the table scrolls sideways: status, mode and period fold under the name, reserved under the spend.
  const region = page.getByRole('region', { name: 'Budgets table' });
  await region.waitFor();
  assert.equal(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth'), true);
  assert.equal(await region.evaluate((el) => { const box = el as unknown as { scrollWidth: number; clientWidth: number }; return box.scrollWidth <= box.clientWidth; }), true, 'the table fits 390 px');
  const team = page.getByRole('row', { name: /Team “Ops”/ });
  await team.getByText('Cap · Daily').waitFor();
  await team.getByText('Paused').filter({ visible: true }).waitFor();
  await team.getByText(/^Reserved \$/).waitFor();
  assert.equal(await team.getByRole('cell', { name: 'Daily' }).count(), 0, 'the period column is folded away');
  await page.getByRole('button', { name: 'Resume Team “Ops”' }).scrollIntoViewIfNeeded();
  await page.getByRole('button', { name: 'Resume Team “Ops”' }).click();
  await page.getByRole('dialog', { name: 'Resume Team “Ops”' }).getByRole('button', { name: 'Resume budget' }).waitFor();
  assert.deepEqual(await axeSerious(page), [], 'at 390 px');
});
