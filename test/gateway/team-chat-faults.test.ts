// Issue 17, "Bad input and faults", on a REAL OpenClaw gateway (one for the
// file, started by the test in its own process group) with the fake model:
// the gateway killed in the middle of a run and started again, svc killed
// with `kill -9` mid-run and started again on the same SVC_HOME, and the
// team-chat worker killed mid-run (svc in-process, on a real socket, its
// supervisor terminating the thread as a crash would). Each run is held
// mid-stream by the fake model (a SLOW prompt) until the fault has happened.
import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { sendChat } from '../../shared/gateway/chat.ts';
import { buildTestApp } from '../helpers/app.ts';
import { chat, createTeam, executions, history, openChatStream, RUN_WAIT_MS, teamKey, untilEvent, untilExecution, type ChatFrame, type ChatStream, type Entry } from '../helpers/team-chat-api.ts';
import type { FakeRequest } from '../helpers/fake-model.ts';
import { startTeamChatGateway, type TeamChatGateway } from '../helpers/team-chat-gateway.ts';
import { WIRING_KEYS } from '../../shared/gateway-wiring/desired.ts';
import { seedSettings } from '../helpers/seed-settings.ts';
import { startServer, stopAfter, tempHome, type RunningServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';
import { isDelta, isStatus, replyRow, statusAfterRun, userRow } from './team-chat/context.ts';

const SETUP_TIMEOUT_MS = 20 * 60_000;
const EVE = { id: 'eve', name: 'Eve' };
const FIN = { id: 'fin', name: 'Fin' };

let gw: TeamChatGateway | undefined;

before(async () => {
  gw = await startTeamChatGateway('svc-team-chat-faults-');
  await gw.start();
  const ids = await gw.createAgents([EVE.name, FIN.name]);
  assert.deepEqual(ids, [EVE.id, FIN.id]);
  const session = await gw.session();
  // agents.create reloads the gateway's configuration: a turn that starts during the swap fails, so wait for one that completes.
  await waitFor(async () => (await sendChat(session, { sessionKey: `agent:${EVE.id}:warm-up`, message: 'ready?', timeoutMs: 90_000 })).state === 'final', { what: 'Eve to answer', timeoutMs: 120_000, intervalMs: 500 });
}, { timeout: SETUP_TIMEOUT_MS });

after(async () => {
  await gw?.close();
});

/**
 * The file's gateway (started again first when an earlier failed test left
 * it killed), and a svc of the test's own against it: each test starts from
 * a fresh gateway connection, whatever the one before did to its svc.
 */
async function rig(t: TestContext): Promise<{ gw: TeamChatGateway; svc: RunningServer }> {
  if (!gw) throw new Error('no setup (did before() fail?)');
  if (!gw.running()) await gw.start();
  // A new svc (and home) per test against the one gateway: svc's wiring stays off, so that no svc of an earlier test
  // has routed the agents through a port that is gone (this file is about crashes, not what svc writes into the gateway).
  const home = tempHome();
  seedSettings(home, { [WIRING_KEYS.enabled]: 'false' });
  const svc = stopAfter(t, await startServer({ home, env: gw.env, timeoutMs: 120_000 }));
  return { gw, svc };
}

/** Sends a SLOW message and waits until its run is held mid-stream: its first delta is on the stream. Returns the run id and the held model call. */
async function slowRun(base: string, stream: ChatStream, g: TeamChatGateway, teamId: string, message: string): Promise<{ runId: string; held: FakeRequest }> {
  const mark = stream.frames().length;
  await chat(base, teamId, { message });
  const held = await waitFor(() => g.model.held().find((r) => r.prompt === message), { what: `the model call of "${message}" held at the gate`, timeoutMs: RUN_WAIT_MS });
  // The held stream sent one word: the delta of this run is "ECHO:" (earlier runs' deltas came before the mark).
  const isHeldDelta = (f: ChatFrame) => isDelta(f) && f.sessionKey === teamKey(EVE.id, teamId) && f.text.trim() === 'ECHO:';
  const frames = await stream.untilFrames(`the first delta of "${message}"`, (fs) => fs.slice(mark).some(isHeldDelta));
  return { runId: (frames.slice(mark).find(isHeldDelta) as { runId: string }).runId, held };
}

const isMeta = (e: Entry) => e.role === 'system' && e.kind === 'meta';

void test('Teams (issue 17 #3): the gateway killed mid-run: the streamed text is committed, then a meta entry; a send while it is down is retried, then a meta entry; earlier entries are intact; once it is back the next message works', async (t) => {
  const { gw: g, svc: s } = await rig(t);
  const teamId = await createTeam(s.base, 'Gateway faults', [EVE, FIN], EVE.id);
  const key = teamKey(EVE.id, teamId);
  const stream = await openChatStream(s.base, teamId);
  try {
    await chat(s.base, teamId, { message: 'before the crash' });
    await replyRow(stream, EVE.id, teamId, 'the echo before the crash', (text) => text === 'ECHO: before the crash');
    const committed = (await history(s.base, key)).map((e) => e.entryId);

    const { runId } = await slowRun(s.base, stream, g, teamId, 'SLOW: the gateway dies during this');
    await g.kill();
    // What was streamed is kept as Eve's entry of that run, then a meta entry says the run failed.
    const partial = await stream.row('the streamed text committed', (e) => e.role === 'assistant' && e.runId === runId);
    assert.equal(partial.sessionKey, key);
    assert.ok(partial.text.startsWith('ECHO:'), partial.text);
    const meta = await stream.row('a meta entry for the failed run', (e) => isMeta(e) && e.sessionKey === key);
    assert.equal(meta.runId, runId);
    assert.ok(meta.text.startsWith(`Could not deliver to ${EVE.name}: `), meta.text);
    const at = (id: string) => stream.rows().findIndex((e) => e.entryId === id);
    assert.ok(at(partial.entryId) < at(meta.entryId), 'the text first, then the meta entry');
    await untilEvent(s.base, 'an error event for the run', { teamId, kinds: 'error' }, (e) => e.agentId === EVE.id);
    await statusAfterRun(stream, EVE.id, 'error', runId);
    await untilExecution(s.home, teamId, runId, 'error');

    // Sent while the gateway is down: the send waits for the connection, is retried once, then a meta entry names Eve.
    await chat(s.base, teamId, { message: 'sent while the gateway is down' });
    const undelivered = await stream.row('the undelivered meta entry', (e) => isMeta(e) && e.sessionKey === key && e.entryId !== meta.entryId && e.text.includes(`Could not deliver to ${EVE.name}`));
    assert.equal(undelivered.runId, null);
    assert.equal(g.model.requests.filter((r) => r.prompt === 'sent while the gateway is down').length, 0, 'the model never saw it');

    // Nothing committed was lost.
    const after = (await history(s.base, key)).map((e) => e.entryId);
    assert.deepEqual(after.slice(0, committed.length), committed);
    for (const id of [partial.entryId, meta.entryId, undelivered.entryId]) assert.ok(after.includes(id));

    // The same session again once the gateway is back: the run it was cut off in must not swallow the next message.
    const sinceRestart = g.model.requests.length;
    await g.start();
    await chat(s.base, teamId, { message: 'back again' });
    const backUser = await userRow(stream, 'back again', key);
    const run = await waitFor(() => executions(s.home, teamId).find((r) => r.chain_id === backUser.entryId && r.status !== 'running'), { what: 'the run of "back again" to end', timeoutMs: RUN_WAIT_MS });
    const entries = await history(s.base, key);
    const back = entries.find((e) => e.role === 'assistant' && e.runId !== null && e.runId === run.run_id);
    const asked = g.model.requests.slice(sinceRestart).map((r) => r.prompt.replace(/\s+/g, ' ').slice(0, 140));
    assert.equal(back?.text, 'ECHO: back again', `the run of "back again" ended ${run.status} (${run.error ?? 'no error'}) with no reply; the model was asked since the restart: ${JSON.stringify(asked)}; entries after it: ${JSON.stringify(entries.slice(entries.findIndex((e) => e.entryId === backUser.entryId) + 1).map((e) => [e.role, e.text]))}`);
    await statusAfterRun(stream, EVE.id, 'idle', run.run_id as string);
  } finally {
    g.model.release();
    await stream.close();
  }
});

void test('Teams (issue 17 #1): svc killed with kill -9 mid-run and started again on the same SVC_HOME: the run is closed as error with a meta entry, no execution stays running, the transcript is intact, the next message works', async (t) => {
  const { gw: g, svc: s } = await rig(t);
  const teamId = await createTeam(s.base, 'Crash faults', [EVE, FIN], EVE.id);
  const key = teamKey(EVE.id, teamId);
  let stream = await openChatStream(s.base, teamId);
  let again: RunningServer | undefined;
  try {
    await chat(s.base, teamId, { message: 'before svc dies' });
    await replyRow(stream, EVE.id, teamId, 'the echo before svc dies', (text) => text === 'ECHO: before svc dies');
    const { runId, held } = await slowRun(s.base, stream, g, teamId, 'SLOW: svc dies during this');
    const before = (await history(s.base, key)).map((e) => e.entryId);
    await s.stop('SIGKILL');
    await stream.close();

    // Started again on the same SVC_HOME (stopped below; stopAfter removes the home when the test ends).
    again = await startServer({ home: s.home, env: g.env, timeoutMs: 120_000 });
    const base = again.base;
    // Recovery closes the run: error, with the events and a meta entry.
    const rows = await waitFor(() => {
      const all = executions(s.home, teamId);
      return all.every((r) => r.status !== 'running') ? all : null;
    }, { what: 'no execution left running' });
    const run = rows.find((r) => r.run_id === runId);
    assert.deepEqual([run?.status, run?.error], ['error', 'interrupted: svc restarted during the run']);
    const closed = await untilEvent(base, 'execution_completed of the interrupted run', { teamId, kinds: 'execution_completed' }, (e) => e.data.executionId === run?.id);
    assert.equal(closed.agentId, EVE.id);
    await untilEvent(base, 'an error event for it', { teamId, kinds: 'error' }, (e) => e.agentId === EVE.id);
    // Best effort once connected: the run is aborted at the gateway too.
    const svcAgain = again;
    await waitFor(() => held.state === 'closed', { what: 'the interrupted run to be aborted at the gateway', timeoutMs: 60_000 }).catch((err: Error) => {
      throw new Error(`${err.message}\n--- svc output ---\n${svcAgain.output().slice(-4000)}`);
    });

    stream = await openChatStream(base, teamId);
    await stream.until('status error in the snapshot', (f) => isStatus(f) && f.agentId === EVE.id && f.status === 'error');
    const entries = await history(base, key);
    assert.deepEqual(entries.map((e) => e.entryId).slice(0, before.length), before, 'the transcript is intact');
    assert.ok(entries.slice(before.length).some((e) => isMeta(e) && /interrupted|restart/i.test(e.text)), JSON.stringify(entries.slice(before.length)));

    await chat(base, teamId, { message: 'after the restart' });
    const next = await replyRow(stream, EVE.id, teamId, 'the echo after the restart', (text) => text === 'ECHO: after the restart');
    await statusAfterRun(stream, EVE.id, 'idle', next.runId as string);
  } finally {
    g.model.release();
    await stream.close();
    await again?.stop();
  }
});

void test('Teams (issue 17 #1): the team-chat worker killed mid-run: the run ends error (execution row, error event, meta entry), the front door keeps answering, the next message works', async (t) => {
  if (!gw) throw new Error('no setup (did before() fail?)');
  const g = gw;
  if (!g.running()) await g.start();
  const { app, runtime, home } = await buildTestApp(t, { startWorkers: true, env: g.env });
  // As rig(): svc's wiring off, before svc listens (a connect waits for svc's port before it wires anything).
  runtime.deps.gatewayWiring.setSettings({ enabled: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  runtime.setBoundPort(port);
  const base = `http://127.0.0.1:${port}`;
  const teamId = await createTeam(base, 'Worker faults', [EVE, FIN], EVE.id);
  const stream = await openChatStream(base, teamId);
  try {
    const { runId, held } = await slowRun(base, stream, g, teamId, 'SLOW: the worker dies during this');
    assert.equal(await runtime.supervisor.terminate('team-chat'), true);

    // The front door answers while the worker restarts.
    const teams = await fetch(`${base}/api/teams`);
    assert.equal(teams.status, 200);
    const health = await waitFor(async () => {
      const h = (await (await fetch(`${base}/api/health`)).json()) as { workers: Array<{ name: string; state: string; restarts: number }> };
      const w = h.workers.find((x) => x.name === 'team-chat');
      return w && w.restarts >= 1 && w.state === 'running' ? w : null;
    }, { what: 'the team-chat worker restarted' });
    assert.ok(health.restarts >= 1);

    const meta = await stream.row('a meta entry for the interrupted run', (e) => isMeta(e) && e.sessionKey === teamKey(EVE.id, teamId));
    assert.equal(meta.runId, runId);
    assert.match(meta.text, /interrupted/);
    await statusAfterRun(stream, EVE.id, 'error', runId);
    await untilEvent(base, 'an error event for the run', { teamId, kinds: 'error' }, (e) => e.agentId === EVE.id);
    await untilExecution(home, teamId, runId, 'error');
    await waitFor(() => held.state === 'closed', { what: 'the interrupted run to be aborted at the gateway', timeoutMs: 60_000 });

    await chat(base, teamId, { message: 'after the worker restart' });
    const next = await replyRow(stream, EVE.id, teamId, 'the echo after the worker restart', (text) => text === 'ECHO: after the worker restart');
    await statusAfterRun(stream, EVE.id, 'idle', next.runId as string);
  } finally {
    g.model.release();
    await stream.close();
  }
});
