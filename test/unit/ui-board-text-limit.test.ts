// The 4,000-character cap of team rules and the user's intro as the team
// settings page shows it (issue 18, page 5; spec "Limits").
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RULES_MAX } from '../../shared/teams/rules.ts';
import { USER_INTRO_MAX } from '../../shared/teams/onboarding.ts';
import { countLabel, overCap, TEXT_CAP } from '../../ui/src/features/teams/text-limit.ts';

void test('Dashboard (issue 18, Team settings): the field cap is the server cap; over it says by how much', () => {
  assert.equal(TEXT_CAP, RULES_MAX);
  assert.equal(TEXT_CAP, USER_INTRO_MAX);
  assert.equal(countLabel(1234), '1,234 / 4,000 characters');
  assert.equal(overCap('Rules', 4000), null);
  assert.equal(overCap('Rules', 4001), 'Rules can be at most 4,000 characters: remove 1 character to save.');
  assert.equal(overCap('Rules', 5200), 'Rules can be at most 4,000 characters: remove 1,200 characters to save.');
});
