// Spec "Smaller resources → Marketplace catalog", issue 15 #15: a remote
// index's bundles are fetched at most 4 at a time, only from the index's own
// origin, and no redirect is followed (for the index either). Loopback
// servers only: another port is another origin.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTE_BUNDLE_CONCURRENCY, createCatalog, type SourceStatus } from '../../shared/catalog/index.ts';
import { createLogger } from '../../shared/log.ts';
import { makeBundle, makeIndex, serveCatalog } from '../fixtures/catalog/helpers.ts';
import { waitFor } from '../helpers/wait.ts';

const SECTION = 'Smaller resources → Marketplace catalog (issue 15 #15)';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function remoteStatus(indexUrl: string): Promise<SourceStatus> {
  const c = createCatalog({
    config: { packageRoot: ROOT, catalogDir: join(ROOT, 'no-such-folder'), catalogIndexUrl: indexUrl },
    logger: createLogger({ level: 'silent' }),
  });
  const s = (await c.view()).sources.find((x) => x.kind === 'remote');
  assert.ok(s, 'no remote source');
  return s;
}

/** A loopback server answering every request with `answer`; counts requests by path. */
async function serve(t: TestContext, answer: (path: string, res: ServerResponse) => void) {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    answer(path, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => {
    server.closeAllConnections();
    server.close(() => r());
  }));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

void test(`${SECTION}: bundles are fetched at most 4 at a time, and all of them arrive`, async (t) => {
  const packs = Array.from({ length: 12 }, (_, i) => {
    const id = `pack-${i}`;
    return { id, bundle: `b${i}.json`, bytes: makeBundle(id, [{ id: `agent-${i}` }]) };
  });
  const files = new Map(packs.map((p) => [`/${p.bundle}`, p.bytes]));
  // Every bundle is held until the test releases it, one at a time, and only
  // once the reader has as many in flight as it may: an unbounded reader
  // would by then have sent all of them (issue 16 #5: no timed hold).
  const held: Array<() => void> = [];
  let most = 0;
  const served = await serve(t, (path, res) => {
    if (path === '/index.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(makeIndex(packs));
    held.push(() => res.writeHead(200, { 'content-type': 'application/json' }).end(files.get(path)));
    most = Math.max(most, held.length);
  });
  const reading = remoteStatus(`${served.base}/index.json`);
  for (let released = 0; released < packs.length; released++) {
    const full = Math.min(REMOTE_BUNDLE_CONCURRENCY, packs.length - released);
    await waitFor(() => held.length >= full, { what: `${full} bundle requests in flight (${released} answered)` });
    assert.ok(held.length <= REMOTE_BUNDLE_CONCURRENCY, `${held.length} bundle requests in flight at once`);
    held.shift()?.();
  }
  const remote = await reading;
  assert.equal(remote.ok, true, JSON.stringify(remote.refused));
  assert.equal(remote.packs.length, 12);
  assert.equal(REMOTE_BUNDLE_CONCURRENCY, 4);
  assert.equal(most, 4, 'the reader used its four slots, and never more');
});

void test(`${SECTION}: a bundle on another origin is refused for its pack with a clear error, and never fetched`, async (t) => {
  const foreign = makeBundle('foreign-pack', [{ id: 'foreign-agent' }]);
  const home = makeBundle('home-pack', [{ id: 'home-agent' }]);
  const elsewhere = await serveCatalog(t, { '/foreign.json': foreign });
  const files: Record<string, Buffer | string> = { '/home.json': home };
  const served = await serveCatalog(t, files);
  files['/index.json'] = makeIndex([
    { id: 'foreign-pack', bundle: `${elsewhere.base}/foreign.json`, bytes: foreign },
    { id: 'home-pack', bundle: `${served.base}/home.json`, bytes: home },
  ]);
  const remote = await remoteStatus(`${served.base}/index.json`);
  assert.deepEqual(remote.packs, ['home-pack']);
  assert.deepEqual(remote.refused, [{
    pack: 'foreign-pack',
    error: `bundle URL is on another origin (${elsewhere.base}); only the index's origin (${served.base}) is allowed`,
  }]);
  assert.equal(elsewhere.hits.get('/foreign.json'), undefined, 'the other origin was never asked');
});

void test(`${SECTION}: a redirect is not followed, for a bundle or for the index`, async (t) => {
  const bundle = makeBundle('moved-pack', [{ id: 'moved-agent' }]);
  const target = await serveCatalog(t, { '/index.json': makeIndex([{ id: 'moved-pack', bundle: 'b.json', bytes: bundle }]), '/b.json': bundle });
  const redirecting = await serve(t, (path, res) => {
    if (path === '/index.json') return void res.writeHead(200).end(makeIndex([{ id: 'moved-pack', bundle: 'moved.json', bytes: bundle }]));
    if (path === '/moved.json') return void res.writeHead(302, { location: '/b-real.json' }).end();
    if (path === '/b-real.json') return void res.writeHead(200).end(bundle);
    if (path === '/away.json') return void res.writeHead(301, { location: `${target.base}/index.json` }).end();
    res.writeHead(404).end();
  });
  const remote = await remoteStatus(`${redirecting.base}/index.json`);
  assert.deepEqual(remote.packs, []);
  assert.deepEqual(remote.refused, [{ pack: 'moved-pack', error: 'bundle: HTTP 302 redirect refused (svc does not follow redirects: use the final URL)' }]);
  assert.equal(redirecting.hits.get('/b-real.json'), undefined, 'the same-origin target was not fetched either');

  const away = await remoteStatus(`${redirecting.base}/away.json`);
  assert.equal(away.ok, false);
  assert.equal(away.error, 'index: HTTP 301 redirect refused (svc does not follow redirects: use the final URL)');
  assert.equal(target.hits.get('/index.json'), undefined, 'the redirect target was never asked');
});
