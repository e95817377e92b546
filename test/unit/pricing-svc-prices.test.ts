// Issue 31 item 1: prices the operator sets in svc come first, before the
// gateway config's and the library's; the operator's exact snapshot before
// its family, at every source; the body the route takes is checked whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../shared/db/open.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import {
  createPrices, GATEWAY_PRICES_KEY, parseSvcPricesBody, priceBookFor, readSvcPrices, serializePrices, writeSvcPrices, type ModelPrice,
} from '../../shared/pricing/index.ts';

const prices = (svc: Array<[string, ModelPrice]>, gateway: Array<[string, ModelPrice]> = []) =>
  createPrices(new Map(gateway), undefined, { svcPrices: new Map(svc) });

void test('Prices set in svc (issue 31 #1): first in the order, for the model at its provider or at any', () => {
  const p = prices([['openai/gpt-4o', { input: 1, output: 2 }], ['house-model', { input: 4, output: 4 }]], [['openai/gpt-4o', { input: 9, output: 9 }], ['acme/house-model', { input: 7, output: 7 }]]);
  assert.deepEqual(p.priceOf('openai/gpt-4o'), { input: 1, output: 2 }, 'svc over the gateway config and the library');
  assert.equal(p.sourceOf('openai/gpt-4o'), 'svc');
  assert.deepEqual(p.priceOf('acme/house-model'), { input: 4, output: 4 }, 'a <model> key at any provider');
  assert.deepEqual(p.priceOf('house-model'), { input: 4, output: 4 });
  assert.deepEqual(p.priceOf('gpt-4o'), { input: 1, output: 2 }, 'named without its provider: the one provider svc prices it at');
  const svcOnly = prices([['openai/gpt-4o', { input: 1, output: 2 }]]);
  assert.equal(svcOnly.sourceOf('azure/gpt-4o'), 'library', 'openai/gpt-4o in svc prices that provider only');
});

void test('Prices set in svc (issue 31 #1): the operator\'s exact name before its family, and a family price before the library\'s snapshot', () => {
  const p = prices([['gpt-4o', { input: 5, output: 5 }]], [['openai/gpt-4o-2024-08-06', { input: 8, output: 8 }]]);
  assert.deepEqual(p.priceOf('openai/gpt-4o-2024-08-06'), { input: 8, output: 8 }, 'the gateway\'s exact snapshot over svc\'s family price');
  assert.deepEqual(p.priceOf('openai/gpt-4o-2024-11-20'), { input: 5, output: 5 }, 'svc\'s family price over the library\'s snapshot');
  assert.deepEqual(p.priceOf('openrouter/openai/gpt-4o-2024-11-20'), { input: 5, output: 5 });
  assert.deepEqual(p.priceOf('openai/gpt-4o-mini'), { input: 0.15, output: 0.6, cacheRead: 0.075 }, 'not in the family: the library');
});

void test('Prices set in svc (issue 31 #1): a price of zero makes an unpriced model priced, and free', () => {
  const p = prices([['ollama/gemma4', { input: 0, output: 0 }]]);
  assert.equal(p.isPriced('ollama/gemma4'), true);
  assert.equal(p.costOf({ model: 'ollama/gemma4', inputTokens: 1_000_000, outputTokens: 1_000_000 }), 0);
  assert.equal(p.isPriced('ollama/llama3'), false, 'another local model still has no price');
});

void test('Prices set in svc (issue 31 #1): the body is checked whole; every problem is named under its model', () => {
  const ok = parseSvcPricesBody({ 'OpenAI/GPT-4o ': { input: 1, output: 2, cacheRead: 0.5 }, 'fake-1': { input: 0, output: 0 }, __proto__: { input: 3, output: 3 } });
  assert.ok(ok.ok);
  assert.deepEqual(ok.entries, [['openai/gpt-4o', { input: 1, output: 2, cacheRead: 0.5 }], ['fake-1', { input: 0, output: 0 }]]);
  const protoKey = parseSvcPricesBody(JSON.parse('{"__proto__":{"input":3,"output":3}}'));
  assert.ok(protoKey.ok);
  assert.deepEqual(protoKey.entries, [['__proto__', { input: 3, output: 3 }]], 'a model named __proto__ is data');

  const fields = (body: unknown) => {
    const r = parseSvcPricesBody(body);
    assert.ok(!r.ok, JSON.stringify(body));
    const messages: Record<string, string[]> = {};
    for (const i of r.error.issues) (messages[String(i.path[0] ?? '')] ??= []).push(i.message);
    return messages;
  };
  const bad = fields({ 'a/b': { input: -1, output: 2 }, c: { input: 1 }, d: { input: 1, output: 1, extra: 1 }, 'e f': { input: 1, output: 1 }, 'g/': { input: 1, output: 1 }, h: 'cheap' });
  assert.deepEqual(Object.keys(bad).sort(), ['a/b', 'c', 'd', 'e f', 'g/', 'h']);
  assert.match(bad['a/b']![0]!, /^input: /);
  assert.match(bad.c![0]!, /^output: /);
  assert.match(bad['e f']![0]!, /^name: /);
  assert.deepEqual(Object.keys(fields({ 'GPT-4o': { input: 1, output: 1 }, 'gpt-4o': { input: 2, output: 2 } })), ['gpt-4o'], 'the same model twice');
  assert.deepEqual(Object.keys(fields([])), [''], 'an array is not the object');
  assert.deepEqual(Object.keys(fields(Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`m${i}`, { input: 1, output: 1 }])))), ['']);
});

void test('Prices set in svc (issue 31 #1): every connection\'s price book reads them from the settings table', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-svc-prices-'));
  const db = openDatabase(join(dir, 'svc.db'));
  const other = openDatabase(join(dir, 'svc.db'));
  t.after(() => {
    other.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const settings = createSettingsTable(db);
  settings.set(GATEWAY_PRICES_KEY, serializePrices(new Map([['fakellm/fake-1', { input: 9, output: 9 }]])));
  const book = priceBookFor(db);
  assert.equal(book.sourceOf('fakellm/fake-1'), 'gateway');
  const body = parseSvcPricesBody({ 'fakellm/fake-1': { input: 1, output: 1 } });
  assert.ok(body.ok);
  writeSvcPrices(settings, body.entries);
  for (const b of [book, priceBookFor(other)]) {
    assert.equal(b.sourceOf('fakellm/fake-1'), 'svc');
    assert.equal(b.costOf({ model: 'fakellm/fake-1', inputTokens: 1_000_000, outputTokens: 1_000_000 }), 2);
  }
  assert.deepEqual(readSvcPrices(settings), { 'fakellm/fake-1': { input: 1, output: 1 } });
  settings.set('svc:model-prices', 'not json');
  assert.equal(book.sourceOf('fakellm/fake-1'), 'gateway', 'an unreadable value: no price set in svc');
  assert.deepEqual(readSvcPrices(settings), {});
});
