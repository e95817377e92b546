// Spec "Smaller resources" → "Marketplace catalog": how each source is read
// (size caps, path and scheme limits, timeouts), how sources merge, and how
// long a read is cached. Loopback only.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinDir, createCatalog, displayUrl, type CatalogOptions, type SourceStatus } from '../../shared/catalog/index.ts';
import { fetchCapped } from '../../shared/catalog/read-capped.ts';
import { createLogger } from '../../shared/log.ts';
import { catalogFolder, makeBundle, makeIndex, serveCatalog } from '../fixtures/catalog/helpers.ts';
import { deadline } from '../helpers/wait.ts';

const SECTION = 'Smaller resources → Marketplace catalog';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const logger = createLogger({ level: 'silent' });

function catalog(over: Partial<CatalogOptions['config']> = {}, opts: Omit<CatalogOptions, 'config' | 'logger'> = {}) {
  return createCatalog({ config: { packageRoot: ROOT, catalogDir: join(ROOT, 'no-such-folder'), catalogIndexUrl: null, ...over }, logger, ...opts });
}

async function source(c: ReturnType<typeof catalog>, kind: string): Promise<SourceStatus> {
  const s = (await c.view()).sources.find((x) => x.kind === kind);
  assert.ok(s, `no ${kind} source`);
  return s;
}

function remotePack(t: TestContext, id = 'remote-pack') {
  const bytes = makeBundle(id, [{ id: `${id}-agent` }]);
  return serveCatalog(t, { '/index.json': makeIndex([{ id, bundle: 'b.json', bytes }]), '/b.json': bytes });
}

void test(`${SECTION}: relative bundle refs of a local index stay inside its folder; an absolute path is allowed`, async (t) => {
  const outside = catalogFolder(t, [{ id: 'abs-pack', bundle: 'abs.json', bytes: makeBundle('abs-pack', [{ id: 'abs-agent' }]) }]);
  const bytes = makeBundle('escape-pack', [{ id: 'escape-agent' }]);
  writeFileSync(join(outside, 'escape.json'), bytes);
  const dir = catalogFolder(t, [], makeIndex([
    { id: 'escape-pack', bundle: `../${basename(outside)}/escape.json`, bytes },
    { id: 'abs-pack', bundle: join(outside, 'abs.json'), bytes: makeBundle('abs-pack', [{ id: 'abs-agent' }]) },
  ]));
  const c = catalog({ catalogDir: dir });
  const local = await source(c, 'local');
  assert.deepEqual(local.packs, ['abs-pack'], 'an absolute path is the user\'s explicit choice');
  assert.match(local.refused[0]?.error ?? '', /leaves the catalog folder/);
});

void test(`${SECTION}: an index over 1 MiB is refused without being parsed`, async (t) => {
  const dir = catalogFolder(t, [], ' '.repeat(1024 * 1024 + 1));
  const local = await source(catalog({ catalogDir: dir }), 'local');
  assert.equal(local.ok, false);
  assert.match(local.error ?? '', /index is larger than 1048576 bytes/);
});

void test(`${SECTION}: an HTTP body past its cap is cut off while streaming`, async (t) => {
  const served = await serveCatalog(t, { '/big': 'x'.repeat(5000) });
  await assert.rejects(fetchCapped(`${served.base}/big`, { limit: 100, timeoutMs: 2000, what: 'bundle', fetch }), /bundle is larger than 100 bytes/);
});

void test(`${SECTION}: a bundle that claims another pack id, or a pack id an earlier source serves, is refused`, async (t) => {
  const dir = catalogFolder(t, [
    { id: 'claims-other', bundle: 'a.json', bytes: makeBundle('someone-else', [{ id: 'x-agent' }]) },
    { id: 'svc-starter', bundle: 'b.json', bytes: makeBundle('svc-starter', [{ id: 'imposter' }]) },
  ]);
  const c = catalog({ catalogDir: dir });
  const local = await source(c, 'local');
  assert.deepEqual(local.refused.map((r) => [r.pack, r.error]), [
    ['claims-other', 'bundle belongs to pack someone-else, not claims-other'],
    ['svc-starter', 'pack id already served by the builtin source'],
  ]);
  assert.equal(local.error, '2 of 2 packs refused');
  const view = await c.view();
  assert.deepEqual(view.packs.map((p) => [p.id, p.source]), [['svc-starter', 'builtin']]);
  assert.ok(!view.agents.some((a) => a.id === 'imposter'));
});

void test(`${SECTION}: a remote that does not answer in time degrades with "timed out"`, async (t) => {
  const served = await serveCatalog(t, {}, { hang: ['/index.json'] });
  // The remote never answers: only the 200 ms timeout can end the read (the deadline just stops a hang).
  const remote = await deadline(source(catalog({ catalogIndexUrl: `${served.base}/index.json` }, { timeoutMs: 200 }), 'remote'), {
    what: 'the catalog read to give up on a remote that never answers',
  });
  assert.equal(remote.ok, false);
  assert.equal(remote.error, 'timed out');
});

void test(`${SECTION}: a remote answering non-2xx degrades with its status`, async (t) => {
  const served = await serveCatalog(t, {});
  const remote = await source(catalog({ catalogIndexUrl: `${served.base}/index.json` }), 'remote');
  assert.equal(remote.error, 'index: HTTP 404');
});

void test(`${SECTION}: a reported URL carries no credentials`, () => {
  assert.equal(displayUrl('https://user:pw@example.test/i.json?v=2&api_key=k&token=t'), 'https://example.test/i.json?v=2&api_key=redacted&token=redacted');
  assert.equal(displayUrl('not a url with secret'), '(unparseable URL: TypeError)');
});

void test(`${SECTION}: a good remote read is cached 5 minutes, a failed one is retried after 30 seconds`, async (t) => {
  let clock = 1_000_000;
  const now = () => clock;
  const served = await remotePack(t);
  const c = catalog({ catalogIndexUrl: `${served.base}/index.json` }, { now });
  assert.equal((await source(c, 'remote')).ok, true);
  clock += 4 * 60_000;
  await c.view();
  assert.equal(served.hits.get('/index.json'), 1, 'still fresh after 4 minutes');
  clock += 61_000;
  await c.view();
  assert.equal(served.hits.get('/index.json'), 2, 'read again after 5 minutes');

  let calls = 0;
  const failing = catalog({ catalogIndexUrl: 'http://127.0.0.1:9/index.json' }, {
    now,
    fetch: async () => {
      calls++;
      throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    },
  });
  assert.equal((await source(failing, 'remote')).error, 'fetch failed (ECONNREFUSED)');
  clock += 20_000;
  await failing.view();
  assert.equal(calls, 1, 'a failure is not retried on every browse');
  clock += 11_000;
  await failing.view();
  assert.equal(calls, 2, 'but is retried after 30 seconds');
});

void test(`${SECTION}: concurrent browses share one remote read`, async (t) => {
  const served = await remotePack(t);
  const c = catalog({ catalogIndexUrl: `${served.base}/index.json` });
  await Promise.all([c.view(), c.view(), c.agent('remote-pack-agent'), c.view()]);
  assert.equal(served.hits.get('/index.json'), 1);
  assert.equal(served.hits.get('/b.json'), 1);
});

void test(`${SECTION}: the built-in pack is digest-verified too: a stale digest refuses it and the catalog still answers`, async (t) => {
  const root = catalogFolder(t, []);
  const dir = join(root, 'catalog', 'builtin');
  mkdirSync(dir, { recursive: true });
  const original = readFileSync(join(builtinDir(ROOT), 'svc-starter.bundle.json'));
  const edited = Buffer.from(original.toString().replace('# Coder', '# Coder (edited without rehashing)'));
  writeFileSync(join(dir, 'svc-starter.bundle.json'), edited);
  writeFileSync(join(dir, 'index.json'), readFileSync(join(builtinDir(ROOT), 'index.json')));
  const c = catalog({ packageRoot: root });
  const view = await c.view();
  assert.deepEqual(view.packs, []);
  assert.deepEqual(view.agents, []);
  assert.deepEqual(view.sources.map((s) => [s.kind, s.ok, s.refused.map((r) => r.pack)]), [['builtin', false, ['svc-starter']]]);
  await assert.rejects(c.agent('coder'), { kind: 'not_found', message: 'catalog agent not found' });
});
