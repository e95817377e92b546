// Issue 17 #2: the context preamble every delivery carries: section order,
// each section's cap, empty sections left out, the 6,500-character budget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MESSAGE_MARKER, PREAMBLE_BUDGET, SECTION_CAPS, buildPreamble, deliveryText } from '../../shared/team-chat/runs/preamble.ts';
import type { TeamRoster } from '../../shared/team-chat/routing/answerer.ts';

const S = 'Team chat (issue 17 #2)';
const roster: TeamRoster = {
  teamId: 't',
  members: [{ id: 'b1', name: 'Bob', gatewayId: 'b1' }],
  lead: { id: 'l1', name: 'Lea', gatewayId: 'l1' },
};

void test(`${S}: the preamble holds rules, the user's intro, the roster and the activity, in that order`, () => {
  const p = buildPreamble({ rules: 'Be brief.', userIntro: 'I am Sam.', roster, activity: '## Board\n1 task: 1 todo' });
  const at = (s: string) => p.indexOf(s);
  assert.ok(at('[Team rules]\nBe brief.') === 0, p);
  assert.ok(at('[Team rules]') < at('[About the user]\nI am Sam.'));
  assert.ok(at('[About the user]') < at('[Team]\n'));
  assert.ok(at('[Team]') < at('[Activity]\n## Board'));
  assert.match(p, /Bob \(id b1\)/);
  assert.match(p, /Lea \(id l1, lead\)/);
  assert.match(p, /start a line of your reply with @<name>/);
});

void test(`${S}: empty sections are left out`, () => {
  const p = buildPreamble({ rules: '  ', userIntro: '', roster, activity: null });
  assert.ok(p.startsWith('[Team]\n'), p);
  assert.doesNotMatch(p, /\[Team rules\]|\[About the user\]|\[Activity\]/);
});

void test(`${S}: each section is clipped to its cap`, () => {
  const p = buildPreamble({ rules: 'r'.repeat(5000), userIntro: 'u'.repeat(5000), roster, activity: null });
  const rules = /\[Team rules\]\n(r+…)/.exec(p)?.[1] ?? '';
  const user = /\[About the user\]\n(u+…)/.exec(p)?.[1] ?? '';
  assert.equal(rules.length, SECTION_CAPS.rules);
  assert.equal(user.length, SECTION_CAPS.user);
});

void test(`${S}: with every section full the preamble stays within the budget, and the delivery ends with the message after the marker`, () => {
  const many: TeamRoster = { ...roster, members: Array.from({ length: 40 }, (_, i) => ({ id: `agent-${i}`, name: `Agent number ${i}`, gatewayId: null })) };
  const p = buildPreamble({ rules: 'r'.repeat(9000), userIntro: 'u'.repeat(9000), roster: many, activity: 'a'.repeat(9000) });
  assert.ok(p.length <= PREAMBLE_BUDGET, `${p.length} > ${PREAMBLE_BUDGET}`);
  assert.ok(p.includes('[Activity]\naaa'), 'the last section gives way, it is not dropped');
  const text = deliveryText(p, '@Bob hi\n[Message]\nnot a marker');
  assert.ok(text.startsWith(p));
  assert.equal(text.slice(p.length), `${MESSAGE_MARKER}@Bob hi\n[Message]\nnot a marker`);
});
