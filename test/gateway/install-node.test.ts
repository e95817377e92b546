// Issue 30 #6 end to end: svc installs the Node the gateway needs. A real
// `npm install --prefix $SVC_HOME/runtime/node24 node-<platform>-<arch>@24`
// through POST /api/system/install-node into a temporary SVC_HOME (npm's
// own cache makes it quick after the first time; the real-gateway helper
// installs the same package), its progress streamed, completing with the
// version; GET /api/system/status then describes that Node as the one the
// gateway runs with, and it meets the gateway's requirement.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { managedNodeDir, managedNodeSpec, nodePackageName } from '../../shared/gateway/managed-node.ts';
import { removeHome, startServer, tempHome, type RunningServer } from '../helpers/server.ts';
import { postFrames } from './lifecycle-scenario.ts';

const spec = managedNodeSpec();
const skip = spec === null ? `npm has no Node 24 package for ${process.platform}-${process.arch}` : false;
let home: string;
let svc: RunningServer | undefined;

before(async () => {
  home = tempHome('svc-install-node-');
  svc = await startServer({ home });
});

after(async () => {
  await svc?.stop();
  if (home) removeHome(home);
});

void test('Issue 30 #6: install-node installs Node 24 under SVC_HOME with a streamed log, completes with its version, and status reports it as the gateway\'s Node, meeting its requirement', { skip, timeout: 16 * 60_000 }, async () => {
  const base = svc?.base as string;
  const before = (await (await fetch(`${base}/api/system/status`)).json()) as { node: { managed: boolean; managedSpec: string | null } };
  assert.equal(before.node.managed, false);
  assert.equal(before.node.managedSpec, spec);

  const { status, frames } = await postFrames(`${base}/api/system/install-node`, {}, 15 * 60_000);
  assert.equal(status, 200);
  const dir = managedNodeDir(home);
  assert.deepEqual(frames[0], { type: 'progress', step: 'installing', message: `Installing ${spec} into ${dir}...` });
  assert.ok(frames.some((f) => f.type === 'output'), 'npm\'s output is streamed');
  const last = frames.at(-1);
  assert.equal(last?.type, 'complete', JSON.stringify(frames.slice(-5)));
  assert.match(String(last?.version), /^v24\.\d+\.\d+$/);
  assert.ok(!frames.some((f) => f.type === 'error'), JSON.stringify(frames.filter((f) => f.type === 'error')));

  const after = (await (await fetch(`${base}/api/system/status`)).json()) as {
    node: { version: string; path: string; managed: boolean; meetsGatewayRequirement: boolean | null; gatewayRequirement: string };
  };
  assert.equal(after.node.version, last?.version);
  assert.equal(after.node.path, join(dir, 'node_modules', nodePackageName(process.platform, process.arch) as string, 'bin', process.platform === 'win32' ? 'node.exe' : 'node'));
  assert.equal(after.node.managed, true);
  assert.equal(after.node.meetsGatewayRequirement, true, after.node.gatewayRequirement);
});
