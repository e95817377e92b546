// Issue 31 item 10: while svc routes the gateway's model calls, the gateway
// svc starts does not inherit the model providers' keys from svc's own
// environment (the `gateway-routed` child kind of shared/child-env-names.ts):
// with one, the gateway, or any agent's exec, could call the provider around
// svc's endpoint and its caps. Routing off, the gateway gets them as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { childEnvFrom } from '../../shared/config.ts';

const SOURCE = {
  PATH: '/usr/bin',
  OPENAI_API_KEY: 'sk-openai-in-svc-env',
  ANTHROPIC_API_KEY: 'sk-ant-in-svc-env',
  GEMINI_API_KEY: 'gem-key',
  google_api_key: 'lower-case-google',
  OPENCLAW_GATEWAY_TOKEN: 'gw-token',
  BRAVE_API_KEY: 'brave-search-key',
  GOOGLE_CLOUD_PROJECT: 'my-project',
  DISPLAY: ':0',
  SVC_MODEL_TOKEN_MAIN: 'svc_model_x',
};

void test('Budgets (issue 31, item 10): the gateway started while routing is on gets no model provider key from svc\'s environment', () => {
  const env = childEnvFrom(SOURCE, {}, 'gateway-routed');
  for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'google_api_key', 'SVC_MODEL_TOKEN_MAIN']) assert.equal(env[name], undefined, name);
  // What the gateway still needs: its own variables, the tools' keys, a project, the display.
  assert.deepEqual(
    { PATH: env.PATH, OPENCLAW_GATEWAY_TOKEN: env.OPENCLAW_GATEWAY_TOKEN, BRAVE_API_KEY: env.BRAVE_API_KEY, GOOGLE_CLOUD_PROJECT: env.GOOGLE_CLOUD_PROJECT, DISPLAY: env.DISPLAY },
    { PATH: '/usr/bin', OPENCLAW_GATEWAY_TOKEN: 'gw-token', BRAVE_API_KEY: 'brave-search-key', GOOGLE_CLOUD_PROJECT: 'my-project', DISPLAY: ':0' },
  );
});

void test('Budgets (issue 31, item 10): routing off, the gateway inherits the provider keys as documented', () => {
  const env = childEnvFrom(SOURCE, {}, 'gateway');
  assert.equal(env.OPENAI_API_KEY, 'sk-openai-in-svc-env');
  assert.equal(env.ANTHROPIC_API_KEY, 'sk-ant-in-svc-env');
  assert.equal(env.SVC_MODEL_TOKEN_MAIN, undefined);
});
