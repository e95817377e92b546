// One agent run (docs/team-chat.md, "Each run", "When something fails"): an
// executions row `running`, `execution_started`, status running; the send
// through the gateway (chat.send after subscribing, shared/gateway/chat.ts)
// with each delta handed on; then either the reply committed with its usage
// priced into a cost record and a `cost` event, or the failure recorded (what
// had streamed kept, a `system`/`meta` entry, `error` event, status error). A
// send that fails because the connection is down is retried once after
// waiting for it. Budgets (issue 22, budget-halt.ts): a send is not made
// while a paused cap budget applies; a run halted for a budget ends
// `cancelled` naming it; the spend of calls that did not pass svc's model
// endpoint is metered as each call ends (call-meter.ts), what that missed
// when the run ends, and a budget that spend pauses halts the rest of the
// message.
import { messageOf } from '../../errors.ts';
import { sendChat, type ChatTurn } from '../../gateway/chat.ts';
import type { GatewaySession } from '../../gateway/client.ts';
import { GatewayError } from '../../gateway/protocol.ts';
import { randomHex, uuidv7 } from '../../ids.ts';
import type { TeamChatContext } from '../context.ts';
import { isAnnounceRunId } from '../spawns/spawn-keys.ts';
import { readRunUsage, recordCompletion } from './completion.ts';
import { blocked, budgetNote, checkBudgets, halted, meteredRun, meterSpend } from '../budgets/run-budget.ts';
import { abortQuietly, keepStreamed, runEventBase } from './run-parts.ts';
import type { RunHandle, RunOutcome, RunSpec } from './run-types.ts';
import type { RunUsage } from './usage.ts';

export { abortQuietly, runEventBase } from './run-parts.ts';

export type { RunHandle, RunOutcome, RunSpec } from './run-types.ts';

/** Gateway codes that mean the connection, not the run, failed: the send is retried once. */
const CONNECTION_CODES: ReadonlySet<string> = new Set(['CLOSED', 'UNAVAILABLE', 'UNREACHABLE']);

export const newTraceId = (): string => randomHex(16);
const newSpanId = (): string => randomHex(8);

/** Starts a run: its row, event and status are written before this returns; the gateway part goes on in `done`. */
export function startRun(ctx: TeamChatContext, spec: RunSpec): RunHandle {
  const executionId = uuidv7(ctx.now());
  const spanId = newSpanId();
  ctx.tx.run(() => {
    ctx.executions.start({
      id: executionId,
      teamId: spec.teamId,
      agentId: spec.agent.id,
      sessionKey: spec.sessionKey,
      taskId: spec.taskId,
      trigger: spec.trigger,
      chainId: spec.chainId,
      traceId: spec.traceId,
      spanId,
      parentSpanId: spec.parentSpanId,
      startedAt: ctx.now(),
    });
    ctx.domain.agents.setStatus(spec.agent.id, 'running');
    ctx.eventLog.append({
      kind: 'execution_started',
      ...runEventBase(spec, spanId),
      data: { executionId, sessionKey: spec.sessionKey, trigger: spec.trigger },
    });
  });
  ctx.emit('status', { teamId: spec.teamId, agentId: spec.agent.id, status: 'running' });
  const handle: { -readonly [K in keyof RunHandle]: RunHandle[K] } = {
    executionId,
    spanId,
    spec,
    runId: null,
    text: '',
    stopped: false,
    halted: null,
    abort: new AbortController(),
    done: Promise.resolve<RunOutcome>({ state: 'cancelled', text: '', error: null, runId: null }),
  };
  handle.done = drive(ctx, handle).catch((err: unknown): RunOutcome => {
    const outcome: RunOutcome = { state: 'error', text: handle.text, error: messageOf(err), runId: handle.runId };
    if (ctx.closed()) return outcome;
    // A bug or a database failure past the send: the run must still end, not stay `running`.
    ctx.logger.error({ err, executionId }, 'team chat run failed unexpectedly');
    try {
      return fail(ctx, handle, `internal error: ${messageOf(err)}`);
    } catch (again) {
      // The database itself refuses: the row stays `running` and the next start's recovery closes it.
      ctx.logger.error({ err: again, executionId }, 'team chat: could not record a failed run');
      return outcome;
    }
  });
  return handle;
}

async function drive(ctx: TeamChatContext, h: RunHandle): Promise<RunOutcome> {
  let session: GatewaySession | null = liveSession(ctx);
  for (let attempt = 0; ; attempt++) {
    if (ctx.closed()) return { state: 'cancelled', text: h.text, error: null, runId: h.runId };
    if (h.stopped) return cancelled(ctx, h);
    if (h.halted) return halted(ctx, h);
    const block = checkBudgets(ctx, h);
    if (block) return blocked(ctx, h, block);
    let turn: ChatTurn;
    try {
      if (!session) throw new GatewayError({ code: 'UNAVAILABLE', message: 'gateway not connected' });
      turn = await send(ctx, h, session);
    } catch (err) {
      if (ctx.closed()) return { state: 'cancelled', text: h.text, error: null, runId: h.runId };
      if (h.stopped) return cancelled(ctx, h);
      if (h.halted) return halted(ctx, h);
      const e = err instanceof GatewayError ? err : new GatewayError({ code: 'UNKNOWN', message: messageOf(err) });
      if (e.code === 'CLOSED' && h.runId !== null) ctx.gateway.cutOff(h.spec.gatewaySessionKey);
      const down = CONNECTION_CODES.has(e.code) || (e.code === 'TIMEOUT' && h.runId === null);
      if (down && attempt === 0) {
        ctx.logger.warn({ code: e.code, executionId: h.executionId }, 'team chat send failed; waiting for the gateway to retry once');
        session = await ctx.gateway.waitSession(ctx.reconnectWaitMs, h.abort.signal);
        continue;
      }
      if (e.code === 'TIMEOUT' && h.runId !== null) {
        void abortQuietly(ctx, h);
        return fail(ctx, h, `timed out after ${ctx.runTimeoutMs} ms`);
      }
      return fail(ctx, h, e.message);
    }
    h.runId = turn.runId;
    if (h.stopped) return cancelled(ctx, h);
    if (turn.state === 'final') h.text = turn.text;
    if (h.halted) return halted(ctx, h);
    if (turn.state === 'final') {
      const usage = await readRunUsage(ctx, h.spec.gatewaySessionKey, turn.runId);
      if (h.stopped) return cancelled(ctx, h);
      if (h.halted) return halted(ctx, h);
      return complete(ctx, h, usage);
    }
    if (turn.state === 'error' && isReloadRace(turn.errorMessage) && h.text === '' && attempt < RELOAD_RETRIES) {
      ctx.logger.warn({ executionId: h.executionId, attempt }, 'team chat send met a gateway reloading its config; sending again');
      h.runId = null;
      await pause(RELOAD_PAUSE_MS, h.abort.signal);
      continue;
    }
    return fail(ctx, h, turn.state === 'aborted' ? 'the run was aborted at the gateway' : (turn.errorMessage ?? 'run failed'));
  }
}

// The gateway prepares a new model runtime after any change to its config or
// .env (svc's roster lists, MCP attach and model routing among them); a run
// that starts meanwhile ends at once with one of these errors and nothing
// done, so it is sent again: "superseded" while the model runtime swaps, and
// "MCP runtime cleanup could not confirm closure" while a session's MCP
// servers are closed to be opened on the new config (svc restarted on another
// port moves every attach entry's URL).
const RELOAD_RACE = /generation was superseded|MCP runtime cleanup could not confirm closure/i;
const RELOAD_RETRIES = 3;
const RELOAD_PAUSE_MS = 500;
const isReloadRace = (message: string | null | undefined): boolean => RELOAD_RACE.test(message ?? '');

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function liveSession(ctx: TeamChatContext): GatewaySession | null {
  const s = ctx.gateway.session();
  return s && !s.closed ? s : null;
}

/** One chat.send; the run id is taken from the first event of this session so a stop or timeout can abort it. */
async function send(ctx: TeamChatContext, h: RunHandle, session: GatewaySession): Promise<ChatTurn> {
  const { spec } = h;
  const off = session.on('chat', (frame) => {
    const p = frame.payload as { runId?: unknown; sessionKey?: unknown; state?: unknown } | null;
    // A late `final` copy of an earlier run of this session must not name this one,
    // nor may the gateway's own announce run (a native delegation's result: spawns.ts).
    if (!p || p.sessionKey !== spec.gatewaySessionKey || typeof p.runId !== 'string' || p.state === 'final' || isAnnounceRunId(p.runId)) return;
    if (h.runId !== p.runId) {
      h.runId = p.runId;
      ctx.executions.setRunId(h.executionId, p.runId);
    }
  });
  try {
    return await sendChat(session, {
      sessionKey: spec.gatewaySessionKey,
      message: spec.text,
      timeoutMs: ctx.runTimeoutMs,
      onText: (text) => {
        h.text = text;
        ctx.emit('delta', { teamId: spec.teamId, agentId: spec.agent.id, sessionKey: spec.sessionKey, runId: h.runId ?? '', text });
      },
    });
  } finally {
    off();
  }
}

function complete(ctx: TeamChatContext, h: RunHandle, usage: RunUsage): RunOutcome {
  const { spec } = h;
  const runId = h.runId as string;
  const { unroutedUsd } = ctx.tx.run(() => {
    if (spec.transcript && h.text !== '') {
      ctx.entries.reply({ teamId: spec.teamId, agentId: spec.agent.id, sessionKey: spec.sessionKey, text: h.text, runId, trigger: spec.trigger, taskId: spec.taskId });
    }
    return recordCompletion(ctx, {
      executionId: h.executionId,
      teamId: spec.teamId,
      agentId: spec.agent.id,
      runId,
      sessionKey: spec.sessionKey,
      trigger: spec.trigger,
      usage,
      base: runEventBase(spec, h.spanId),
      setIdle: true,
    });
  });
  if (!h.stopped) ctx.emit('status', { teamId: spec.teamId, agentId: spec.agent.id, status: 'idle' });
  // The run is over: a budget its spend paused stops the rest of its message (the fallback's guarantee: after the run).
  const stop = meterSpend(ctx, meteredRun(h), usage, unroutedUsd);
  if (stop) ctx.tx.run(() => budgetNote(ctx, h, stop));
  return { state: 'final', text: h.text, error: null, runId, ...(stop ? { budgetStop: stop } : {}) };
}

function fail(ctx: TeamChatContext, h: RunHandle, why: string): RunOutcome {
  const { spec } = h;
  const reason = ctx.redactor.text(why);
  ctx.tx.run(() => {
    keepStreamed(ctx, h);
    if (spec.transcript) {
      ctx.entries.meta({ teamId: spec.teamId, agentId: spec.agent.id, sessionKey: spec.sessionKey, text: `Could not deliver to ${spec.agent.name}: ${reason}`, runId: h.runId });
    }
    if (ctx.executions.finish(h.executionId, { status: 'error', endedAt: ctx.now(), error: reason })) {
      const base = runEventBase(spec, h.spanId);
      ctx.eventLog.appendMany([
        { kind: 'execution_completed', ...base, data: { executionId: h.executionId, runId: h.runId, status: 'error', trigger: spec.trigger } },
        { kind: 'error', ...base, data: { errorClass: 'TeamChatRunError', message: `Could not deliver to ${spec.agent.name}: ${reason}`, executionId: h.executionId } },
      ]);
      ctx.domain.agents.setStatus(spec.agent.id, 'error');
    }
  });
  ctx.emit('status', { teamId: spec.teamId, agentId: spec.agent.id, status: 'error' });
  return { state: 'error', text: h.text, error: reason, runId: h.runId };
}

function cancelled(ctx: TeamChatContext, h: RunHandle): RunOutcome {
  ctx.tx.run(() => keepStreamed(ctx, h));
  return { state: 'cancelled', text: h.text, error: null, runId: h.runId };
}
