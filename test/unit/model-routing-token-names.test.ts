// Issue 31 items 6 and 10: the .env name of an agent's model token
// (shared/model-routing/token-names.ts) is injective in the agent id and the
// token's generation, keeps the name svc always gave a plain id, and is a
// name the gateway's .env takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fc } from '../helpers/fc.ts';
import { tokenEnvVar } from '../../shared/model-routing/token-names.ts';

const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

void test('Budgets (issue 31, item 10): agents x-y and x_y get different token names; plain ids keep the name they had', () => {
  assert.notEqual(tokenEnvVar('x-y'), tokenEnvVar('x_y'));
  assert.equal(tokenEnvVar('x-y'), 'SVC_MODEL_TOKEN_X_Y');
  assert.equal(tokenEnvVar('x_y'), 'SVC_MODEL_TOKEN__X_5FY');
  assert.equal(tokenEnvVar('main'), 'SVC_MODEL_TOKEN_MAIN');
  assert.equal(tokenEnvVar('team-lead-2'), 'SVC_MODEL_TOKEN_TEAM_LEAD_2');
  assert.notEqual(tokenEnvVar('Bob'), tokenEnvVar('bob'));
  assert.notEqual(tokenEnvVar('a--b'), tokenEnvVar('a-b'));
  assert.equal(tokenEnvVar('main', 2), 'SVC_MODEL_TOKEN_MAIN__R2');
});

void test('Budgets (issue 31, item 10): token names are injective over (agent id, generation) and always a valid .env name', () => {
  const id = fc.oneof(
    fc.stringMatching(/^[a-z0-9]{1,4}(-[a-z0-9]{1,4}){0,2}$/),
    fc.stringMatching(/^[a-zA-Z0-9_.-]{1,10}$/),
    fc.string({ minLength: 1, maxLength: 8, unit: 'grapheme' }),
  );
  const gen = fc.integer({ min: 1, max: 30 });
  fc.assert(
    fc.property(id, gen, id, gen, (a, ga, b, gb) => {
      assert.match(tokenEnvVar(a, ga), ENV_NAME);
      if (a !== b || ga !== gb) assert.notEqual(tokenEnvVar(a, ga), tokenEnvVar(b, gb), `${a}#${ga} vs ${b}#${gb}`);
    }),
    { numRuns: 5000, verbose: true },
  );
});
