// Scenarios for the real OpenClaw gateway driven through svc's routes
// (spec "System (host and gateway)", "Gateway process"). Not a test file:
// an end-to-end test that has started svc against a prepared gateway state
// directory (OPENCLAW_STATE_DIR with openclaw.json and .env, Node 24 and the
// CLI first on svc's PATH) calls these in order: start, approve-device,
// restart, stop.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';

export interface SseFrame { type: string; [k: string]: unknown }

/** A gateway connect attempt: ok, or the gateway's error code (NOT_PAIRED, ...). */
export type ConnectAttempt = () => Promise<{ ok: true } | { ok: false; code: string }>;

/** Reads an SSE response to its end (the route closes it after the last frame); bounded. */
export async function postFrames(url: string, body: unknown, timeoutMs = 150_000): Promise<{ status: number; frames: SseFrame[] }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  assert.match(String(res.headers.get('content-type')), /^text\/event-stream/);
  const text = await res.text();
  const frames = text
    .split('\n\n')
    .filter((b) => b.startsWith('data: '))
    .map((b) => JSON.parse(b.slice(6)) as SseFrame);
  return { status: res.status, frames };
}

async function json(url: string, init?: RequestInit): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(80_000) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const action = (svcBase: string, a: string) =>
  json(`${svcBase}/api/system/gateway`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: a }) });

/** progress/error/complete in order, output lines left out (they interleave freely). */
function steps(frames: SseFrame[]): string[] {
  return frames.filter((f) => f.type !== 'output').map((f) => (f.type === 'progress' ? String(f.step) : f.type));
}

function assertStartFrames(frames: SseFrame[], from: number): number {
  const s = steps(frames).slice(from);
  assert.equal(s[0], 'starting', JSON.stringify(frames.slice(0, 5)));
  assert.equal(s.at(-1), 'complete', JSON.stringify(frames.filter((f) => f.type !== 'output').slice(-3)));
  assert.ok(s.length >= 3 && s.slice(1, -1).every((x) => x === 'waiting'), `starting, waiting..., complete: ${s.join(',')}`);
  const waiting = frames.filter((f) => f.type === 'progress' && f.step === 'waiting').map((f) => String(f.message));
  waiting.forEach((m, i) => assert.equal(m, `Waiting for gateway... (${i + 1}/120)`));
  for (const f of frames.filter((x) => x.type === 'output')) assert.ok(typeof f.line === 'string' && f.line.trim() !== '');
  const done = frames.at(-1) as SseFrame;
  assert.equal(done.type, 'complete');
  assert.equal(done.success, true);
  assert.equal(typeof done.pid, 'number');
  return done.pid as number;
}

async function assertRunning(svcBase: string, pid: number): Promise<{ pid: number; port: number }> {
  const st = await action(svcBase, 'status');
  assert.equal(st.status, 200);
  assert.equal(st.body.running, true);
  assert.equal(st.body.pid, pid);
  assert.equal(typeof st.body.port, 'number');
  assert.ok(typeof st.body.uptimeMs === 'number' && st.body.uptimeMs >= 0);
  const sys = await json(`${svcBase}/api/system/status`);
  const gw = sys.body.gateway as Record<string, unknown>;
  assert.equal(gw.managedByService, true);
  assert.equal(gw.pid, pid);
  return { pid, port: st.body.port as number };
}

/** POST action start on a stopped gateway: progress starting → waiting… → complete; then status running with pid and port. */
export async function startThroughSvc(svcBase: string): Promise<{ pid: number; port: number }> {
  const { status, frames } = await postFrames(`${svcBase}/api/system/gateway`, { action: 'start' });
  assert.equal(status, 200);
  const pid = assertStartFrames(frames, 0);
  const running = await assertRunning(svcBase, pid);
  // A second start finds the port answering.
  const again = await postFrames(`${svcBase}/api/system/gateway`, { action: 'start' });
  assert.deepEqual(again.frames, [{ type: 'complete', success: true, port: running.port, message: 'Gateway already running' }]);
  return running;
}

/** POST action restart: progress stopping, then a fresh start with a new pid. */
export async function restartThroughSvc(svcBase: string): Promise<{ pid: number; port: number }> {
  const before = await action(svcBase, 'status');
  const { status, frames } = await postFrames(`${svcBase}/api/system/gateway`, { action: 'restart' });
  assert.equal(status, 200);
  assert.equal(steps(frames)[0], 'stopping');
  const pid = assertStartFrames(frames, 1);
  assert.notEqual(pid, before.body.pid, 'a new gateway process');
  return assertRunning(svcBase, pid);
}

/** POST action stop: `{ ok: true, stopped: true }`, then not running and (when given) no PID file. */
export async function stopThroughSvc(svcBase: string, opts: { pidFile?: string } = {}): Promise<void> {
  const r = await action(svcBase, 'stop');
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { ok: true, stopped: true });
  const st = await action(svcBase, 'status');
  assert.equal(st.body.running, false);
  assert.equal(st.body.pid, null);
  assert.equal(st.body.uptimeMs, null);
  if (opts.pidFile) assert.equal(existsSync(opts.pidFile), false, 'gateway.pid removed');
  const again = await action(svcBase, 'stop');
  assert.deepEqual(again.body, { ok: false, message: 'No gateway process found' });
}

/** A pending pairing request as `openclaw devices list --json` shows it. */
export interface PendingRequest { requestId: string; deviceId: string }

export interface ApproveDeviceContext {
  svcBase: string;
  /** svc's own device id (its proxy-device-identity.json). */
  svcDeviceId: string;
  /** A connect through svc's proxy that carries an Origin: svc's device asks to be paired. */
  connectWithOrigin: ConnectAttempt;
  /** A connect of another device (its own key) that carries an Origin: it asks to be paired too. */
  connectOtherDevice: ConnectAttempt;
  /** The gateway's pending pairing requests (the real CLI's `devices list --json`). */
  pending: () => Promise<PendingRequest[]>;
}

/**
 * Spec "approve-device", issue 15 #8: svc's proxied connect with an Origin
 * is NOT_PAIRED, and so is another device's, whose request is the newer one
 * (what `--latest` would pick). approve-device approves svc's request by its
 * id, leaves the other pending, and svc's device then connects; with only
 * the other device's request left it is the 404, saying it left that alone.
 */
export async function approveDeviceScenario(ctx: ApproveDeviceContext): Promise<void> {
  assert.deepEqual(await ctx.connectWithOrigin(), { ok: false, code: 'NOT_PAIRED' });
  assert.deepEqual(await ctx.connectOtherDevice(), { ok: false, code: 'NOT_PAIRED' });
  const before = await ctx.pending();
  const own = before.find((p) => p.deviceId === ctx.svcDeviceId);
  const other = before.find((p) => p.deviceId !== ctx.svcDeviceId);
  assert.ok(own && other, `both requests are pending: ${JSON.stringify(before)}`);

  const approved = await json(`${ctx.svcBase}/api/system/approve-device`, { method: 'POST' });
  assert.equal(approved.status, 200, JSON.stringify(approved.body));
  assert.deepEqual(Object.keys(approved.body).sort(), ['ok', 'output', 'requestId']);
  assert.equal(approved.body.ok, true);
  assert.equal(approved.body.requestId, own.requestId, "svc's own request, not the newest");
  assert.equal(typeof approved.body.output, 'string');
  const after = await ctx.pending();
  assert.ok(!after.some((p) => p.deviceId === ctx.svcDeviceId), JSON.stringify(after));
  assert.ok(after.some((p) => p.deviceId === other.deviceId), "the other device's request is still pending");

  assert.deepEqual(await ctx.connectWithOrigin(), { ok: true });
  assert.deepEqual(await ctx.connectOtherDevice(), { ok: false, code: 'NOT_PAIRED' }, 'the other device was not let in');

  const none = await json(`${ctx.svcBase}/api/system/approve-device`, { method: 'POST' });
  assert.equal(none.status, 404);
  assert.equal(none.body.error, 'No pending device pairing requests found');
  assert.match(String(none.body.details), /another device's request was left alone/);
  assert.ok((await ctx.pending()).some((p) => p.deviceId === other.deviceId), 'still pending after the 404');
}
