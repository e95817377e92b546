// Issue 31 item 1: the price library reads only the data it bundles. Pricing
// many models, the first lookup loading the library in this process, opens
// no socket and calls no fetch (its own file: no other test has loaded the
// library before the traps are set).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { PROVIDERS } from '../../shared/gateway/providers.ts';
import { BUILT_IN_PRICES } from '../../shared/pricing/index.ts';

void test('Price library (issue 31 #1): pricing works offline: no fetch, no socket', (t) => {
  const attempts: string[] = [];
  const realFetch = globalThis.fetch;
  const realConnect = net.Socket.prototype.connect;
  globalThis.fetch = (input: string | URL | Request) => {
    attempts.push(`fetch ${String(input)}`);
    return Promise.reject(new Error('no network in this test'));
  };
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    attempts.push(`connect ${JSON.stringify(args[0])}`);
    throw new Error('no network in this test');
  } as typeof net.Socket.prototype.connect;
  t.after(() => {
    globalThis.fetch = realFetch;
    net.Socket.prototype.connect = realConnect;
  });
  const models = [...PROVIDERS.map((p) => p.defaultModel), 'openai/gpt-4o-2024-08-06', 'anthropic/claude-sonnet-4-5', 'nobody/knows-this'];
  const priced = models.filter((m) => BUILT_IN_PRICES.isPriced(m));
  assert.ok(priced.includes('openai/gpt-4o-2024-08-06'), 'the library answered');
  assert.deepEqual(attempts, []);
});
