// Issue 17 #1 on the supervisor's side: with workers running, team chat goes
// through the team-chat worker. Its counters show in /api/health's
// `workers`; killed mid-run (as a crash would), its run ends `error` on the
// stream at once, the front door keeps answering, the restarted worker's
// recovery records the run as interrupted, and the next message works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OwnedGatewayLink } from '../../supervisor/services/gateway-link.ts';
import { openSse } from '../helpers/http.ts';
import { waitFor } from '../helpers/wait.ts';
import { chatFixture, DELIVERY_WAIT_MS, type ChatFixture } from './team-chat-fixture.ts';

interface WorkerStatus {
  name: string;
  state: string;
  restarts: number;
  stats?: Record<string, number>;
}

void test('Team chat run effects (issue 17 #1): the team-chat worker killed mid-run: the run ends error, the front door keeps answering, the next message works', async (t) => {
  // The run must still be `running` (waiting for the gateway) when the worker is killed.
  const f = await chatFixture(t, { startWorkers: true, reconnectWaitMs: 10_000 });
  await f.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = f.app.server.address() as AddressInfo;
  const stream = await openSse(`http://127.0.0.1:${port}/api/teams/${f.teamId}/chat/stream`);
  try {
    await crashAndRecover(f, stream);
  } finally {
    // Before buildTestApp's clean-up: app.close() waits for open connections.
    await stream.close();
    f.runtime.deps.sse.closeAll();
  }
});

async function crashAndRecover(f: ChatFixture, stream: Awaited<ReturnType<typeof openSse>>): Promise<void> {
  const db = f.runtime.deps.db;
  const workers = async () => {
    const res = await f.app.inject('/api/health');
    return (res.json<{ workers?: WorkerStatus[] }>().workers ?? []).find((w) => w.name === 'team-chat');
  };

  // A request made while the worker starts waits for it.
  const first = await f.post({ message: 'start', targetAgentId: f.ann });
  assert.equal(first.statusCode, 202, first.body);
  const health = await waitFor(async () => {
    const w = await workers();
    return w?.stats ? w : null;
  }, { what: 'the team-chat worker\'s counters in /api/health' });
  assert.equal(health.state, 'running');
  assert.deepEqual(Object.keys(health.stats ?? {}).sort(), ['orchestrators', 'queued', 'running', 'runs']);

  // No gateway listens: the run waits for a connection before its retry. Kill the worker then.
  const running = await waitFor(
    () => db.prepare("SELECT id, agent_id AS agentId FROM executions WHERE status = 'running'").get() as { id: string; agentId: string } | undefined,
    { what: 'a running execution' },
  );
  assert.equal(running.agentId, f.ann);
  await stream.until((fr) => fr.some((x) => x.event === 'status' && x.data === JSON.stringify({ agentId: f.ann, status: 'running' })));
  const seen: string[] = [];
  const unsubscribe = f.runtime.deps.teamChat.frames.subscribe(f.teamId, (chunk) => (seen.push(chunk), true));
  assert.equal(await f.runtime.supervisor.terminate('team-chat'), true);
  // Said by the supervisor as the thread exits, not left to the restarted worker's recovery.
  assert.ok(seen.some((c) => c.includes(JSON.stringify({ agentId: f.ann, status: 'error' }))), `frames at exit: ${seen.join('')}`);
  unsubscribe();

  // The stream says so at once; the front door answers meanwhile.
  await stream.until((fr) => fr.filter((x) => x.event === 'status' && x.data === JSON.stringify({ agentId: f.ann, status: 'error' })).length > 0);
  const list = await f.app.inject('/api/teams');
  assert.equal(list.statusCode, 200);

  // The restarted worker's recovery closes the run it left.
  const closed = await waitFor(() => {
    const row = db.prepare('SELECT status, error FROM executions WHERE id = ?').get(running.id) as { status: string; error: string | null } | undefined;
    return row && row.status !== 'running' ? row : null;
  }, { what: 'the interrupted execution to be closed' });
  assert.equal(closed.status, 'error');
  assert.match(closed.error ?? '', /interrupted/);
  const w = await waitFor(async () => {
    const x = await workers();
    return x && x.restarts >= 1 && x.state === 'running' ? x : null;
  }, { what: 'the team-chat worker to be restarted' });
  assert.ok(w.restarts >= 1);

  // The next message is taken by the new worker and delivered (to a meta entry: still no gateway).
  const next = await f.post({ message: 'after the crash', targetAgentId: f.bob, entryId: 'after-crash' });
  assert.equal(next.statusCode, 202, next.body);
  const user = f.rows().find((r) => r.entry.entryId === 'after-crash');
  assert.ok(user, 'the user entry is committed when 202 is sent');
  const meta = await f.metaAfter(f.key(f.bob), user.id);
  assert.ok(meta.id > user.id);
  await waitFor(() => stream.frames.some((x) => x.id === String(meta.id)), { what: 'the meta entry on the stream', timeoutMs: DELIVERY_WAIT_MS });
}

void test('Settings and health (issue 17 #1): a gateway URL saved while the team-chat worker runs is where the worker connects next', async (t) => {
  const f = await chatFixture(t, { startWorkers: true });
  // A loopback listener standing in for the gateway: any WebSocket upgrade it sees came from svc.
  const upgrades: string[] = [];
  const gateway = createServer((_req, res) => res.writeHead(404).end());
  gateway.on('upgrade', (req, socket) => {
    upgrades.push(req.url ?? '');
    socket.destroy();
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => gateway.close(() => resolve())));
  const { port } = gateway.address() as AddressInfo;

  // The worker is up and configured (a message went through it) before the settings change.
  const first = await f.post({ message: 'before the change', targetAgentId: f.ann, entryId: 'before-change' });
  assert.equal(first.statusCode, 202, first.body);
  assert.equal(upgrades.length, 0);
  // svc's own gateway link follows the settings too: stopped here, so only the worker can be the one that connects.
  await (f.runtime.deps.gatewayLink as OwnedGatewayLink).stop();
  const saved = await f.app.inject({ method: 'POST', url: '/api/settings', payload: { gatewayUrl: `ws://127.0.0.1:${port}` } });
  assert.equal(saved.statusCode, 200, saved.body);
  await waitFor(() => upgrades.length > 0, { what: 'the team-chat worker to connect to the new gateway URL' });
});
