// Issue 30 item 4: the prices the operator gave the gateway's models
// (`models.providers.<p>.models[].cost`), extracted, published into svc's
// settings table by the supervisor and read back by every thread's price book.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../shared/db/open.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import { createLogger } from '../../shared/log.ts';
import { REGISTRY_KEY } from '../../shared/model-routing/registry.ts';
import { modelEntryFor } from '../../shared/model-routing/upstream-lookup.ts';
import { GATEWAY_PRICES_KEY, parsePrices, priceBookFor, pricesFromGatewayConfig, serializePrices } from '../../shared/pricing/index.ts';
import { createGatewayPricesService } from '../../supervisor/services/gateway-prices-service.ts';
import { waitFor } from '../helpers/wait.ts';

const provider = (models: unknown[]) => ({ baseUrl: 'http://127.0.0.1:1/v1', api: 'openai-completions', models });
const gatewayConfig = (providers: Record<string, unknown>) => ({ models: { mode: 'merge', providers } });

void test('Pricing (issue 30 #4): the extractor keys configured prices by <provider>/<model>; an entry without a cost is not configured, an all-zero cost is', () => {
  const prices = pricesFromGatewayConfig(gatewayConfig({
    fakellm: provider([
      { id: 'svc-e2e-llm', cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } },
      { id: 'free-local', cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
      { id: 'no-cost', name: 'No cost' },
      { id: 'cost-null', cost: null },
      { id: 'half', cost: { input: 1 } },
      { id: 'negative', cost: { input: -1, output: 2 } },
      { id: 'infinite', cost: { input: Infinity, output: 2 } },
      { id: 'nan', cost: { input: 1, output: NaN } },
      { id: 'strings', cost: { input: '3', output: '15' } },
      { id: 'bad-cache', cost: { input: 1, output: 2, cacheRead: -1, cacheWrite: 'x' } },
      { cost: { input: 1, output: 1 } },
      { id: '', cost: { input: 1, output: 1 } },
      'not an entry',
    ]),
    openai: provider([{ id: 'gpt-4o', cost: { input: 2.5, output: 10, cacheRead: 1.25 } }]),
  }));
  assert.deepEqual([...prices], [
    ['fakellm/svc-e2e-llm', { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }],
    ['fakellm/free-local', { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }],
    ['fakellm/bad-cache', { input: 1, output: 2 }],
    ['openai/gpt-4o', { input: 2.5, output: 10, cacheRead: 1.25 }],
  ]);
});

void test('Pricing (issue 30 #4): svc\'s own svc-<agent> routing providers are skipped; so is a plain entry svc writes for a model its upstream does not list', () => {
  const prices = pricesFromGatewayConfig(gatewayConfig({
    acme: provider([{ id: 'm1', cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } }, modelEntryFor([], 'm2')]),
    'svc-writer': provider([{ id: 'm1', cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }]),
    'SVC-Reader': provider([{ id: 'm1', cost: { input: 9, output: 9 } }]),
  }));
  assert.deepEqual([...prices.keys()], ['acme/m1']);
  // The plain entry states no cost at all, so nothing tells the gateway (or svc) the model is free.
  assert.equal(Object.hasOwn(modelEntryFor([], 'm2') as object, 'cost'), false);
  const upstreamEntry = { id: 'm1', cost: { input: 1, output: 2 } };
  assert.equal(modelEntryFor([upstreamEntry], 'm1'), upstreamEntry, "the upstream's own entry, its cost included");
});

void test('Pricing (issue 30 #4): the extractor is prototype-safe: `__proto__` and other prototype names are ids like any other', () => {
  // As JSON.parse reads openclaw.json: `__proto__` is an own key there.
  const config: unknown = JSON.parse('{"models":{"providers":{"__proto__":{"models":[{"id":"constructor","cost":{"input":1,"output":2}}]}}}}');
  const prices = pricesFromGatewayConfig(config);
  assert.deepEqual([...prices], [['__proto__/constructor', { input: 1, output: 2 }]]);
  assert.equal(({} as Record<string, unknown>).models, undefined, 'nothing leaked onto Object.prototype');
  // Whatever the shape, the extractor answers with a (possibly empty) map and never throws.
  for (const bad of [null, undefined, 42, 'x', [], { models: null }, { models: { providers: [] } }, { models: { providers: { p: { models: {} } } } }, Object.create(null)]) {
    assert.deepEqual([...pricesFromGatewayConfig(bad)], [], JSON.stringify(bad));
  }
  const stored = serializePrices(prices);
  assert.deepEqual([...(parsePrices(stored) ?? [])], [...prices], 'the stored text reads back as written');
  for (const bad of ['not json', '{}', '[["p/m",{"input":-1,"output":1}]]', '[["",{"input":1,"output":1}]]']) assert.equal(parsePrices(bad), null, bad);
});

function database(t: TestContext) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-gateway-prices-'));
  const db = openDatabase(join(dir, 'svc.db'));
  t.after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, db };
}

void test('Pricing (issue 30 #4): the price book reads what the supervisor published on any connection, re-parsing only when the stored text changes', (t) => {
  const { dir, db } = database(t);
  const settings = createSettingsTable(db);
  const book = priceBookFor(db);
  assert.equal(priceBookFor(db), book, 'one book per connection');
  assert.equal(book.costOf({ model: 'fakellm/fake-model', inputTokens: 1_000_000, outputTokens: 0 }), 3, 'nothing published: the default');
  const before = book.current();
  assert.equal(book.current(), before, 'unchanged settings: the same table, not parsed again');

  settings.set(GATEWAY_PRICES_KEY, serializePrices(pricesFromGatewayConfig(gatewayConfig({
    fakellm: provider([{ id: 'fake-model', cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }]),
    acme: provider([{ id: 'gpt-4o', cost: { input: 6, output: 6 } }]),
    other: provider([{ id: 'gpt-4o', cost: { input: 9, output: 9 } }]),
  }))));
  // Another connection to the same database (a worker thread's) sees it too.
  const worker = openDatabase(join(dir, 'svc.db'));
  t.after(() => worker.close());
  for (const b of [book, priceBookFor(worker)]) {
    assert.equal(b.costOf({ model: 'fakellm/fake-model', inputTokens: 1_000_000, outputTokens: 1_000_000 }), 0, 'configured at zero: zero');
    assert.deepEqual(b.priceOf('acme/gpt-4o'), { input: 6, output: 6 });
  }
  assert.notEqual(book.current(), before);
  const published = book.current();
  assert.equal(book.current(), published);

  // A routed agent's provider is priced by its upstream, as the routing registry names it.
  // gpt-4o in the price library: 2.5 / 10, cache reads at 1.25.
  const LIBRARY_GPT_4O = { input: 2.5, output: 10, cacheRead: 1.25 };
  assert.deepEqual(book.priceOf('svc-writer/gpt-4o'), LIBRARY_GPT_4O, 'no registry yet: two providers configure gpt-4o, so the library');
  settings.set(REGISTRY_KEY, JSON.stringify({ agents: { writer: { upstream: 'acme' } }, upstreams: {} }));
  assert.deepEqual(book.priceOf('svc-writer/gpt-4o'), { input: 6, output: 6 });
  settings.set(GATEWAY_PRICES_KEY, 'not json');
  assert.deepEqual(book.priceOf('acme/gpt-4o'), LIBRARY_GPT_4O, 'an unreadable value: the library, as before any config was read');
});

function service(t: TestContext, opts: { connected?: boolean; call?: (method: string, params: unknown) => Promise<unknown> } = {}) {
  const { dir, db } = database(t);
  const stateDir = join(dir, 'gateway-state');
  mkdirSync(stateDir);
  let clock = 1_000;
  const settings = createSettingsTable(db, () => clock);
  const logs: string[] = [];
  const logger = createLogger({ level: 'info' }, { write: (s: string) => void logs.push(s) });
  const calls: string[] = [];
  let connected = opts.connected ?? false;
  const writeFile = (config: unknown) => writeFileSync(join(stateDir, 'openclaw.json'), typeof config === 'string' ? config : JSON.stringify(config));
  const make = () =>
    createGatewayPricesService({
      stateDir: () => stateDir, settingsTable: settings, book: priceBookFor(db), logger,
      gateway: {
        connected: () => connected,
        call: (method, params) => {
          calls.push(method);
          return opts.call ? opts.call(method, params) : Promise.reject(new Error('not connected'));
        },
      },
    });
  return {
    db, settings, logs, calls, writeFile, make,
    tick: () => void (clock += 1_000),
    setConnected: (c: boolean) => void (connected = c),
    stored: () => settings.getEntry(GATEWAY_PRICES_KEY),
  };
}

const priced = (id: string, input: number, output: number) => gatewayConfig({ fakellm: provider([{ id, cost: { input, output, cacheRead: 0, cacheWrite: 0 } }]) });

void test('Pricing (issue 30 #4): the supervisor service publishes the config file\'s prices at start, and refresh(config) publishes what a caller read', (t) => {
  const s = service(t);
  s.writeFile(priced('fake-model', 2, 8));
  const prices = s.make();
  assert.deepEqual(prices.book.priceOf('fakellm/fake-model'), { input: 2, output: 8, cacheRead: 0, cacheWrite: 0 });
  assert.equal(s.calls.length, 0, 'not connected: no request');
  const first = s.stored();

  // The same prices again are not rewritten (the row's updatedAt says when they last changed).
  s.tick();
  prices.refresh(priced('fake-model', 2, 8));
  assert.deepEqual(s.stored(), first);
  prices.refresh(priced('fake-model', 4, 16));
  assert.deepEqual(prices.book.priceOf('fakellm/fake-model'), { input: 4, output: 16, cacheRead: 0, cacheWrite: 0 });
  assert.equal(s.stored()?.updatedAt, 2_000);
  assert.ok(s.logs.some((l) => l.includes('gateway model prices published') && l.includes('fakellm/fake-model')));

  // A config without the model's cost: it is no longer configured, and the default prices it again.
  prices.refresh(gatewayConfig({ fakellm: provider([{ id: 'fake-model' }]) }));
  assert.deepEqual(prices.book.priceOf('fakellm/fake-model'), { input: 3, output: 15 });
});

void test('Pricing (issue 30 #4): on each connect the service reads the running gateway\'s config (config.get, `parsed`); a failed read, or a lost connection, falls back to the file', async (t) => {
  let answer: unknown = { hash: 'h1', parsed: priced('fake-model', 5, 25), config: priced('fake-model', 99, 99) };
  const s = service(t, { call: async () => (answer instanceof Error ? Promise.reject(answer) : answer) });
  const prices = s.make();
  assert.equal(s.stored(), null, 'no file, not connected: nothing published');

  s.setConnected(true);
  prices.gatewayStatus(true);
  await waitFor(() => prices.book.priceOf('fakellm/fake-model').input === 5, { what: 'the prices of config.get to be published' });
  assert.deepEqual(s.calls, ['config.get']);
  prices.gatewayStatus(true);
  assert.deepEqual(s.calls, ['config.get'], 'a status repeated while connected is not a new connect');

  s.writeFile(priced('fake-model', 1, 1));
  s.setConnected(false);
  prices.gatewayStatus(false);
  assert.equal(prices.book.priceOf('fakellm/fake-model').input, 1, 'the link lost: the file');

  answer = new Error('gateway timeout');
  s.writeFile(priced('fake-model', 7, 7));
  s.setConnected(true);
  prices.gatewayStatus(true);
  await waitFor(() => prices.book.priceOf('fakellm/fake-model').input === 7, { what: 'the file to be read after config.get failed' });
  assert.ok(s.logs.some((l) => l.includes('config.get for model prices failed')));
});

void test('Pricing (issue 30 #4): no config to read (no file, one that does not parse) leaves the published prices as they were', (t) => {
  const s = service(t);
  s.settings.set(GATEWAY_PRICES_KEY, serializePrices(pricesFromGatewayConfig(priced('fake-model', 2, 2))));
  const before = s.stored();
  s.make();
  assert.deepEqual(s.stored(), before, 'no file');
  s.writeFile('{ not json');
  s.make();
  assert.deepEqual(s.stored(), before, 'a corrupt file');
});
