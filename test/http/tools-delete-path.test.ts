// Issue 15 #7: delete_path cannot be raced outside the workspace. The target
// (or a parent) swapped for a symlink to an outside folder, while the
// approval is pending or in the instant between the last check and the
// removal, deletes nothing outside: the call reports a refusal and the
// outside file is still there. The approval is resolved through the route,
// as on the dashboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs, { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { workspaceDir, type ToolApproval, type ToolCallResult } from '../../shared/broker/index.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { waitFor } from '../helpers/wait.ts';

function nextPending(app: FastifyInstance): Promise<ToolApproval> {
  return waitFor(async () => (await app.inject('/api/tools/approvals')).json<{ approvals: ToolApproval[] }>().approvals[0], {
    what: 'a pending approval on GET /api/tools/approvals',
  });
}

async function approve(app: FastifyInstance, id: string): Promise<void> {
  const res = await app.inject({ method: 'POST', url: `/api/tools/approvals/${id}/resolve`, payload: { decision: 'allow_once' } });
  assert.equal(res.statusCode, 200, res.body);
}

/** An outside folder (under SVC_HOME, beside the workspace: same filesystem) holding `<sub>/victim.txt`. */
function outsideWithVictim(ta: TestApp, name: string, sub = ''): { dir: string; victim: string } {
  const dir = join(ta.runtime.deps.paths.home, name);
  mkdirSync(join(dir, sub), { recursive: true });
  const victim = join(dir, sub, 'victim.txt');
  writeFileSync(victim, 'precious');
  return { dir, victim };
}

function workspace(ta: TestApp): string {
  const ws = workspaceDir(ta.runtime.deps.paths);
  mkdirSync(ws, { recursive: true });
  return ws;
}

function assertRefused(r: ToolCallResult, pattern: RegExp): void {
  assert.equal(r.isError, true, r.text);
  assert.equal(r.outcome, 'refused', r.text);
  assert.match(r.text, pattern);
}

void test('Security (issue 15 #7): delete_path refuses a target or parent swapped for a symlink (or another folder) while its approval is pending', async (t) => {
  const ta = await buildTestApp(t);
  const { broker } = ta.runtime.deps;
  const ws = workspace(ta);

  // The target itself becomes a symlink to an outside folder.
  mkdirSync(join(ws, 'target'));
  writeFileSync(join(ws, 'target', 'f.txt'), 'x');
  const out1 = outsideWithVictim(ta, 'outside-1');
  const call1 = broker.call('delete_path', { path: 'target' }, { agentId: 'a' });
  const row1 = await nextPending(ta.app);
  renameSync(join(ws, 'target'), join(ws, 'target-was'));
  symlinkSync(out1.dir, join(ws, 'target'));
  await approve(ta.app, row1.id);
  assertRefused(await call1, /symlink among its components/);
  assert.equal(readFileSync(out1.victim, 'utf8'), 'precious');

  // A parent becomes a symlink to an outside folder holding the same relative path.
  mkdirSync(join(ws, 'parent', 'dir'), { recursive: true });
  const out2 = outsideWithVictim(ta, 'outside-2', 'dir');
  const call2 = broker.call('delete_path', { path: 'parent/dir' }, { agentId: 'a' });
  const row2 = await nextPending(ta.app);
  renameSync(join(ws, 'parent'), join(ws, 'parent-was'));
  symlinkSync(out2.dir, join(ws, 'parent'));
  await approve(ta.app, row2.id);
  assertRefused(await call2, /symlink among its components \(parent\)/);
  assert.equal(readFileSync(out2.victim, 'utf8'), 'precious');

  // The target replaced by another real folder: not what the human approved.
  mkdirSync(join(ws, 'approved'));
  const call3 = broker.call('delete_path', { path: 'approved' }, { agentId: 'a' });
  const row3 = await nextPending(ta.app);
  renameSync(join(ws, 'approved'), join(ws, 'approved-was'));
  mkdirSync(join(ws, 'approved'));
  writeFileSync(join(ws, 'approved', 'new.txt'), 'not approved');
  await approve(ta.app, row3.id);
  assertRefused(await call3, /no longer what was approved/);
  assert.ok(existsSync(join(ws, 'approved', 'new.txt')));

  // Unswapped, the same path is deleted; the quarantine folder is private and left empty.
  mkdirSync(join(ws, 'fine', 'sub'), { recursive: true });
  writeFileSync(join(ws, 'fine', 'sub', 'f.txt'), 'x');
  const call4 = broker.call('delete_path', { path: 'fine' }, { agentId: 'a' });
  await approve(ta.app, (await nextPending(ta.app)).id);
  const r4 = await call4;
  assert.equal(r4.isError, false, r4.text);
  assert.equal(existsSync(join(ws, 'fine')), false);
  const quarantine = join(ws, '.svc-quarantine');
  assert.equal(statSync(quarantine).mode & 0o777, 0o700);
  assert.deepEqual(readdirSync(quarantine), []);
  // svc's own folder is not a target.
  assertRefused(await broker.call('delete_path', { path: '.svc-quarantine' }, { agentId: 'a' }), /quarantine/);
  assert.deepEqual((await ta.app.inject('/api/tools/approvals')).json<{ approvals: unknown[] }>().approvals, []);
});

void test('Security (issue 15 #7): a parent swapped for a symlink between the last check and the removal deletes nothing outside', async (t) => {
  const ta = await buildTestApp(t);
  const { broker } = ta.runtime.deps;
  const ws = workspace(ta);
  mkdirSync(join(ws, 'parent', 'dir'), { recursive: true });
  writeFileSync(join(ws, 'parent', 'dir', 'mine.txt'), 'x');
  const out = outsideWithVictim(ta, 'outside', 'dir');
  const target = join(ws, 'parent', 'dir');

  // The swap happens inside the removal's own first filesystem step on the
  // target (a rename into quarantine, or a plain rm), after every check ran:
  // the widest window a racing process could hope for.
  let swapped = false;
  const swapFirst = <A extends unknown[], R>(orig: (...a: A) => R) => (...args: A): R => {
    if (!swapped && args[0] === target) {
      swapped = true;
      renameSync(join(ws, 'parent'), join(ws, 'parent-was'));
      symlinkSync(out.dir, join(ws, 'parent'));
    }
    return orig(...args);
  };
  const origRename = fs.renameSync;
  const origRm = fs.rmSync;
  fs.renameSync = swapFirst(origRename);
  fs.rmSync = swapFirst(origRm);
  syncBuiltinESMExports();
  t.after(() => {
    fs.renameSync = origRename;
    fs.rmSync = origRm;
    syncBuiltinESMExports();
  });

  const call = broker.call('delete_path', { path: 'parent/dir' }, { agentId: 'a' });
  await approve(ta.app, (await nextPending(ta.app)).id);
  const r = await call;
  assert.ok(swapped, 'the removal touched the target');
  assert.equal(readFileSync(out.victim, 'utf8'), 'precious', 'the outside file survives');
  assertRefused(r, /swapped while it was being removed; nothing was deleted$/);
  // What was moved went back where it came from; the workspace's own folder is untouched too.
  assert.ok(existsSync(join(ws, 'parent-was', 'dir', 'mine.txt')));
  assert.deepEqual(readdirSync(join(ws, '.svc-quarantine')), []);
});
