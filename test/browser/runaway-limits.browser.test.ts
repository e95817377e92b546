// Issue 31 item 7 in a real browser: the team settings' "Runaway turns"
// section shows the team's two limits (the defaults at first), saves one that
// survives a reload and reads back from GET /api/teams/:id/runaway-limits,
// keeps a limit set earlier when the other one changes, shows the server's
// 400 next to a refused field while nothing changes, and resets to the
// defaults. axe in light and dark with a refusal on screen.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { axeSerious, openPage, startSvc, useBrowser } from '../helpers/browser.ts';
import { call } from '../helpers/team-chat-api.ts';

const browser = useBrowser();

interface View {
  teamId: string;
  limits: { maxCallsPerTurn: number; maxIdenticalRepeats: number };
  custom: Partial<View['limits']>;
  defaults: View['limits'];
}
interface Refusal {
  error: string;
  details: { fieldErrors: Record<string, string[]> };
}

const DEFAULTS = { maxCallsPerTurn: 100, maxIdenticalRepeats: 10 };

async function seedTeam(base: string): Promise<string> {
  const r = await call<{ team: { id: string } }>(base, 'POST', '/api/teams', { name: 'Crew', icon: '🧪', color: '#336699' });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.team.id;
}

const section = (page: Page) => page.getByRole('region', { name: 'Runaway turns' });
const calls = (page: Page) => section(page).getByLabel('Model calls per turn');
const repeats = (page: Page) => section(page).getByLabel('Identical tool calls in a row');

/** The limits as the page shows them: each input's value and the line said with it. */
async function shown(page: Page): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for (const input of [calls(page), repeats(page)]) {
    const said: string[] = [];
    for (const id of ((await input.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean)) said.push((await page.locator(`[id="${id}"]`).textContent()) ?? '');
    out.push([await input.inputValue(), said.join(' ')]);
  }
  return out;
}

void test('Runaway (issue 31, item 7): a team\'s runaway limits on its settings page: defaults, save, reload, a refusal that changes nothing, reset', async (t) => {
  const svc = await startSvc(t);
  const teamId = await seedTeam(svc.base);
  const url = `/api/teams/${teamId}/runaway-limits`;
  const get = async () => (await call<View>(svc.base, 'GET', url)).body;
  const { page, allow } = await openPage(t, browser());
  await page.goto(`${svc.base}/teams/${teamId}/settings`);

  // The defaults, each said to be the default; nothing to reset.
  await calls(page).waitFor();
  await section(page).getByText(/svc does not forward its next model call/).waitFor();
  assert.deepEqual(await shown(page), [
    ['100', 'Now 100, the default. A whole number from 1 to 10,000.'],
    ['10', 'Now 10, the default. A whole number from 2 to 1,000.'],
  ]);
  assert.equal(await calls(page).getAttribute('min'), '1');
  assert.equal(await repeats(page).getAttribute('max'), '1000');
  const reset = section(page).getByRole('button', { name: 'Reset to defaults' });
  assert.equal(await reset.isDisabled(), true);

  // Set repeats to 3 (Enter in the field submits): saved, read back after a reload, and from the server.
  await repeats(page).fill('3');
  await repeats(page).press('Enter');
  await section(page).getByRole('status').getByText('Runaway limits saved.').waitFor();
  assert.deepEqual(await get(), { teamId, limits: { maxCallsPerTurn: 100, maxIdenticalRepeats: 3 }, custom: { maxIdenticalRepeats: 3 }, defaults: DEFAULTS });
  await page.reload();
  await calls(page).waitFor();
  assert.deepEqual(await shown(page), [
    ['100', 'Now 100, the default. A whole number from 1 to 10,000.'],
    ['3', 'Now 3, set for this team (the default is 10). A whole number from 2 to 1,000.'],
  ]);

  // Changing the other limit keeps this one (a PUT replaces what the team set).
  await calls(page).fill('40');
  await section(page).getByRole('button', { name: 'Save limits' }).click();
  await section(page).getByText('Now 40, set for this team (the default is 100).', { exact: false }).waitFor();
  assert.deepEqual((await get()).custom, { maxCallsPerTurn: 40, maxIdenticalRepeats: 3 });

  // Out of bounds: the server's message next to the field, the field focused, nothing changed.
  allow(/status of 400/);
  await repeats(page).fill('1');
  await section(page).getByRole('button', { name: 'Save limits' }).click();
  const expected = (await call<Refusal>(svc.base, 'PUT', url, { maxCallsPerTurn: 40, maxIdenticalRepeats: 1 })).body;
  const fieldMessage = expected.details.fieldErrors.maxIdenticalRepeats?.[0] ?? '';
  assert.ok(fieldMessage, 'the server names the refused field');
  await section(page).getByRole('alert').getByText(expected.error).waitFor();
  assert.equal(await repeats(page).getAttribute('aria-invalid'), 'true');
  assert.equal(await page.evaluate<string>('document.activeElement?.getAttribute("data-field") ?? ""'), 'maxIdenticalRepeats', 'the refused field has the focus');
  assert.deepEqual((await shown(page))[1], ['1', `${fieldMessage} Now 3, set for this team (the default is 10). A whole number from 2 to 1,000.`]);
  assert.equal(await calls(page).getAttribute('aria-invalid'), 'false');
  assert.deepEqual((await get()).custom, { maxCallsPerTurn: 40, maxIdenticalRepeats: 3 });

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    assert.deepEqual(await axeSerious(page), [], `axe (${colorScheme})`);
  }

  // Reset: both back to the defaults, on the page and on the server.
  await reset.click();
  await section(page).getByRole('status').getByText('Runaway limits are back to the defaults.').waitFor();
  assert.equal(await section(page).getByRole('alert').count(), 0, 'the refusal is gone');
  assert.deepEqual(await shown(page), [
    ['100', 'Now 100, the default. A whole number from 1 to 10,000.'],
    ['10', 'Now 10, the default. A whole number from 2 to 1,000.'],
  ]);
  assert.deepEqual(await get(), { teamId, limits: DEFAULTS, custom: {}, defaults: DEFAULTS });
  assert.equal(await reset.isDisabled(), true);
});
