// End-to-end on real sockets: teams and the board served by a real server
// process while another process writes the same WAL file through the same
// shared/ functions (as the MCP stdio binaries will).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT, startServer, stopAfter } from '../helpers/server.ts';
import { openSse } from '../helpers/http.ts';

const WRITER = join(REPO_ROOT, 'test', 'fixtures', 'board-writer.ts');

function otherProcess(dbPath: string, ...args: string[]): { ok: boolean; kind?: string; message?: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', WRITER, dbPath, ...args], { cwd: REPO_ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim()) as { ok: boolean; kind?: string; message?: string };
}

const json = (method: string, body: unknown) => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

void test('Teams: GET /api/teams sees a write from another process at once (cache keyed on data_version)', async (t) => {
  const s = stopAfter(t, await startServer());
  const dbPath = join(s.home, 'svc.db');
  const created = await fetch(`${s.base}/api/teams`, json('POST', { name: 'Ops', icon: '🛠', color: '#123456' }));
  assert.equal(created.status, 200);
  const { team } = (await created.json()) as { team: { id: string } };

  const first = await fetch(`${s.base}/api/teams`);
  const etag = first.headers.get('etag');
  assert.ok(etag);
  const body1 = (await first.json()) as { teams: Array<{ agentCount: number }>; assignments: unknown[] };
  assert.equal(body1.teams[0]?.agentCount, 0);
  assert.equal((await fetch(`${s.base}/api/teams`, { headers: { 'if-none-match': etag } })).status, 304);

  assert.deepEqual(otherProcess(dbPath, 'assign', team.id, 'outside-agent'), { ok: true, result: null });

  const second = await fetch(`${s.base}/api/teams`, { headers: { 'if-none-match': etag } });
  assert.equal(second.status, 200, 'the cached list was invalidated by the other process');
  assert.notEqual(second.headers.get('etag'), etag);
  const body2 = (await second.json()) as { teams: Array<{ agentCount: number }>; assignments: unknown[] };
  assert.equal(body2.teams[0]?.agentCount, 1);
  assert.deepEqual(body2.assignments, [{ agentId: 'outside-agent', teamId: team.id }]);
});

void test('Board: a claim won by another process is a 409 over HTTP; the live feed shows the board events', async (t) => {
  const s = stopAfter(t, await startServer());
  const dbPath = join(s.home, 'svc.db');
  const feed = await openSse(`${s.base}/api/obs/stream`);
  t.after(() => feed.close());

  const res = await fetch(`${s.base}/api/tasks`, json('POST', { title: 'Write the report' }));
  assert.equal(res.status, 200);
  const { task } = (await res.json()) as { task: { id: string } };

  const won = otherProcess(dbPath, 'claim', task.id, 'agent-outside') as { ok: boolean; result?: { id: string; status: string; assigneeAgentId: string } };
  assert.equal(won.ok, true);
  assert.deepEqual([won.result?.id, won.result?.status, won.result?.assigneeAgentId], [task.id, 'in_progress', 'agent-outside']);

  const lost = await fetch(`${s.base}/api/tasks/${task.id}/claim`, json('POST', { agentId: 'agent-http' }));
  assert.equal(lost.status, 409);
  assert.deepEqual(await lost.json(), { error: 'task already claimed' });
  const again = otherProcess(dbPath, 'claim', task.id, 'agent-third');
  assert.deepEqual(again, { ok: false, kind: 'conflict', message: 'task already claimed' });

  const read = (await (await fetch(`${s.base}/api/tasks/${task.id}`)).json()) as { task: { status: string; assigneeAgentId: string } };
  assert.equal(read.task.status, 'in_progress');
  assert.equal(read.task.assigneeAgentId, 'agent-outside');

  // task_created was committed by the server (delivered at commit time);
  // task_claimed by the other process (delivered by the tail worker).
  const kinds = () => feed.frames.filter((f) => f.data).map((f) => (JSON.parse(f.data as string) as { kind: string; taskId: string }));
  await feed.until(() => kinds().some((e) => e.kind === 'task_claimed' && e.taskId === task.id));
  assert.deepEqual(kinds().filter((e) => e.taskId === task.id).map((e) => e.kind), ['task_created', 'task_claimed']);
});
