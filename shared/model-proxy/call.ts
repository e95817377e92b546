// One model call through svc's endpoint, start to end: the request's rules
// (request-rules.ts: a listed model, nothing svc cannot price; an unpriced
// model under any cap is refused too: unknown is not free), the `open` row, the
// reservation under every budget that applies, then either the refusal (a
// cap said no) or the pass-through, and the settlement:
//   ok                      settled at the usage's cost (the estimate when the
//                           provider sent no usage: the side that never lets
//                           spend through)
//   cut                     the provider ended the answer early: settled at
//                           what was seen (the usage if it came, else the
//                           estimate's input plus the streamed output
//                           characters / 4 as output tokens)
//   aborted                 the caller went away before the answer's last
//                           event (after it, the call is `ok`). A non-streamed answer is
//                           read to its end anyway (forward.ts) and settled
//                           at its usage; a stream is closed (the provider
//                           stops) and settled at no less than the
//                           reservation: what was billed is not known
//   capped                  a cap was reached mid-stream (meterFor): settled
//                           like a cut, at what the caller was sent
//   upstream_error          released (the provider's error went to the caller)
//   unreachable             released; the caller gets a 502
// A refusal pauses the budget (ledger), writes its `error` event and asks the
// team chat to halt the run it belongs to.
// Every figure is priced as `<upstream>/<model>` (the registry's provider id
// of the real upstream, never the gateway's `svc-<agent>`), by the price book
// the cost record is priced by: the estimate, the settlement and the record
// agree.
import type { ServerResponse } from 'node:http';
import { budgetLabel, capText } from '../budgets/events.ts';
import type { BudgetLedger } from '../budgets/ledger.ts';
import type { WriteBatch } from '../db/write-batch.ts';
import type { Prices } from '../pricing/price.ts';
import type { Logger } from '../log.ts';
import type { ModelCalls } from '../model-calls/index.ts';
import type { ResolvedUpstream, RoutedApi } from '../model-routing/registry.ts';
import type { BudgetHalt } from '../team-chat/schemas.ts';
import { traceIdOf, upstreamHeaders, upstreamUrl } from './api.ts';
import type { CallContextReader } from './call-context.ts';
import { estimateCall, tokensOfChars, type Estimate } from './estimate.ts';
import { errorAnswer } from './error-shape.ts';
import { forward, OVERHEAD_HEADER, overheadMs, type ForwardResult } from './forward.ts';
import type { CallRecorder } from './records.ts';
import { refusalAnswer, refusalText } from './refusal.ts';
import type { RequestFacts } from './request-facts.ts';
import { runawayHit, type RunawayLimits } from './runaway.ts';
import type { RunawayRecordInput } from './runaway-record.ts';
import type { CallUsage } from './usage.ts';

/** A model with no known price under a cap: unknown is not free. */
export const unpricedText = (model: string): string =>
  `model ${model} has no known price, and a cap budget applies to this call: set its price in svc or in the gateway's config`;


export interface ModelCallDeps {
  /**
   * The row and its reservation are one write, its end and settlement
   * another (the ledger nests in each); calls in the same turn share a
   * commit (write-batch.ts). A reservation runs at once when no batch is
   * waiting: the call is forwarded without waiting a turn.
   */
  writes: WriteBatch;
  calls: ModelCalls;
  ledger: BudgetLedger;
  context: CallContextReader;
  recorder: CallRecorder;
  logger: Logger;
  /** The team chat's halt (E); must not throw into the endpoint, and is guarded here too. */
  haltForBudget: (req: BudgetHalt) => Promise<void>;
  headersTimeoutMs: number;
  /** Per-team runaway limits (runaway-limits.ts) and what an ended turn leaves (runaway-record.ts). */
  runaway: { limits: (teamIds: readonly string[]) => RunawayLimits; record: (input: RunawayRecordInput) => void };
  now?: () => number;
}

export interface ModelCallRequest {
  agentId: string;
  api: RoutedApi;
  upstream: ResolvedUpstream;
  /** The request body as received (its size is the estimate's input). */
  raw: Buffer;
  /** What the body asks for (request-facts.ts). */
  facts: RequestFacts;
  headers: Record<string, string | string[] | undefined>;
  res: ServerResponse;
  /** performance.now() when the request reached svc. */
  receivedAt: number;
}

/**
 * Tokens a call is charged for. A whole answer: its usage (the estimate when
 * the provider sent none). A cut or aborted stream: the input of the usage
 * seen so far (Anthropic sends it first), else the estimate's; the output
 * is the larger of the usage's and the streamed characters / 4.
 */
function chargedTokens(r: ForwardResult, est: Estimate): CallUsage {
  const u = r.usage;
  const whole = { inputTokens: est.inputTokens, outputTokens: est.outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 };
  if (r.outcome === 'ok' || (r.outcome === 'aborted' && r.whole)) return u ?? whole;
  // Nobody saw the end of an aborted answer: what the provider billed is unknown, so no less than the reservation.
  const floor = r.outcome === 'aborted' ? est.outputTokens : 0;
  return {
    inputTokens: u?.inputTokens || est.inputTokens,
    outputTokens: Math.max(floor, u?.outputTokens ?? 0, tokensOfChars(r.outputChars)),
    cacheReadTokens: u?.cacheReadTokens ?? 0,
    cacheWriteTokens: u?.cacheWriteTokens ?? 0,
  };
}

export function createModelCallHandler(deps: ModelCallDeps) {
  const { calls, ledger, context, recorder, logger } = deps;
  const now = deps.now ?? Date.now;

  // Awaited before the refusal is answered: the run is then still live when the
  // team chat halts it (the refusal itself ends the run at the gateway).
  const halt = async (req: BudgetHalt): Promise<void> => {
    try {
      await deps.haltForBudget(req);
    } catch (err) {
      logger.warn({ err, agentId: req.agentId, budgetId: req.budgetId }, 'model endpoint: the budget halt failed; the next call is refused again');
    }
  };

  /** svc's own answer (a refusal or an error), with the time svc spent as its overhead. */
  const answer = (req: ModelCallRequest, status: number, a: { contentType: string; body: string }): void => {
    req.res.writeHead(status, { 'content-type': a.contentType, 'cache-control': 'no-cache', [OVERHEAD_HEADER]: overheadMs(performance.now() - req.receivedAt) });
    req.res.end(a.body);
  };

  /**
   * A streamed call under a cap: its output is priced as it passes, and
   * once it outgrows what was reserved, the reservation grows with it
   * (ledger.extend, in steps of the estimate). When a cap cannot hold the
   * next step, the answer ends at that chunk: spend passes a cap by at most
   * the one chunk that reached it.
   */
  const meterFor = (id: string, priced: string, est: Estimate, prices: Prices) => {
    let held = est.usd;
    return (outputChars: number): boolean => {
      const cost = prices.costOf({ model: priced, inputTokens: est.inputTokens, outputTokens: tokensOfChars(outputChars) });
      if (cost <= held) return true;
      for (const step of [Math.max(est.usd, cost - held), cost - held]) {
        if (ledger.extend(id, step).ok) {
          held += step;
          return true;
        }
      }
      return false;
    };
  };

  return async function handle(req: ModelCallRequest): Promise<void> {
    const { agentId, api, upstream, raw, facts: f, res } = req;
    const startedAt = now();
    const ctx = context.of(agentId, f.claimedSessionKey);
    const traceId = ctx.traceId ?? traceIdOf(req.headers.traceparent);
    const model = f.model;
    const priced = model === '' ? null : `${upstream.id}/${model}`;
    // What the call's span says however it ends (records.ts): the caller's traceparent becomes its parent.
    const facts = { agentId, ctx, traceId, traceparent: req.headers.traceparent, provider: upstream.id, model: priced, maxTokens: f.maxOutputTokens, startedAt };
    /** A 400 before any row: its span (no row id), then the answer. */
    const reject = (outcome: 'rejected' | 'refused', text: string): void => {
      recorder.unspent({ ...facts, id: null, outcome, httpStatus: 400, durationMs: performance.now() - req.receivedAt, endedAt: now() }, []);
      answer(req, 400, errorAnswer(api, 400, text));
    };
    if (f.refused !== null || priced === null) {
      logger.info({ agentId, api, refused: f.refused }, 'model endpoint: a request svc cannot price was refused');
      reject('rejected', f.refused ?? 'request has no model');
      return;
    }
    const stream = f.stream;
    const scope = { agentId, teamId: ctx.teamId, taskId: ctx.taskId, teamIds: ctx.teamIds, taskIds: ctx.taskIds, model };
    // One read of the prices for the call: its check, estimate, meter and settlement agree.
    const prices = recorder.prices.current();
    if (!prices.isPriced(priced) && ledger.capApplies(scope)) {
      reject('refused', unpricedText(model));
      return;
    }
    const est = estimateCall(prices, priced, raw.length, f.maxOutputTokens, f.choices);
    const open = () =>
      calls.open({
        agentId, teamId: ctx.teamId, taskId: ctx.taskId, sessionKey: ctx.sessionKey, runId: ctx.runId,
        traceId: traceIdOf(req.headers.traceparent) ?? ctx.traceId, provider: upstream.id, api, model, estimateUsd: est.usd, startedAt,
      });

    const hit = runawayHit(f.turn, deps.runaway.limits(ctx.teamIds), agentId);
    if (hit !== null) {
      const id = open();
      const durationMs = performance.now() - req.receivedAt;
      const endedAt = now();
      calls.finish(id, { outcome: 'ended', inputTokens: 0, outputTokens: 0, costUsd: 0, httpStatus: 200, durationMs, endedAt });
      recorder.unspent({ ...facts, id, outcome: 'ended', httpStatus: 200, durationMs, endedAt }, []);
      deps.runaway.record({
        agentId, sessionKey: ctx.executionSessionKey, teamId: ctx.teamId, taskId: ctx.taskId,
        runId: ctx.runId, traceId, parentSpanId: ctx.spanId, callId: id, hit,
      });
      answer(req, 200, refusalAnswer(api, { id, model, stream, text: hit.text, nowMs: startedAt }));
      return;
    }

    const reservation = deps.writes.runEager(() => {
      const callId = open();
      return { id: callId, reserved: ledger.reserve(callId, scope, est.usd) };
    });
    const { id, reserved } = reservation instanceof Promise ? await reservation : reservation;
    if (!reserved.ok) {
      const label = budgetLabel(reserved.refusedBy);
      const durationMs = performance.now() - req.receivedAt;
      const endedAt = now();
      calls.finish(id, {
        outcome: 'refused', inputTokens: 0, outputTokens: 0, costUsd: 0, httpStatus: 200, budgetId: reserved.refusedBy.id, durationMs, endedAt,
      });
      recorder.unspent({ ...facts, id, outcome: 'refused', httpStatus: 200, budgetId: reserved.refusedBy.id, durationMs, endedAt }, reserved.transitions);
      // Only svc's own run is halted: a session key written in the body names nothing svc acts on.
      if (ctx.executionSessionKey !== null) await halt({ agentId, sessionKey: ctx.executionSessionKey, budgetLabel: label, budgetId: reserved.refusedBy.id });
      answer(req, 200, refusalAnswer(api, { id, model, stream, text: refusalText(label, capText(reserved.refusedBy)), nowMs: startedAt }));
      return;
    }

    const send = f.rewritten === null ? raw : Buffer.from(f.rewritten.buffer, f.rewritten.byteOffset, f.rewritten.byteLength);
    let r: ForwardResult;
    try {
      r = await forward({
        url: new URL(upstreamUrl(upstream, api)), headers: upstreamHeaders(req.headers, upstream, send.length), body: send,
        api, res, startedAt: req.receivedAt, headersTimeoutMs: deps.headersTimeoutMs, stream,
        ...(stream && ledger.capApplies(scope) ? { meter: meterFor(id, priced, est, prices) } : {}),
      });
    } catch (err) {
      // forward() settles every network outcome itself; a throw here is a
      // bug (a bad URL in the registry): nothing was spent.
      ledger.release(id);
      const durationMs = performance.now() - req.receivedAt;
      const endedAt = now();
      calls.finish(id, { outcome: 'upstream_error', durationMs, endedAt });
      recorder.unspent({ ...facts, id, outcome: 'upstream_error', durationMs, endedAt }, []);
      throw err;
    }
    const endedAt = now();

    if (r.outcome === 'upstream_error' || r.outcome === 'unreachable') {
      ledger.release(id);
      if (r.outcome === 'unreachable') {
        logger.warn({ agentId, upstream: upstream.id, error: r.error }, 'model endpoint: provider unreachable');
        if (!res.headersSent) answer(req, 502, errorAnswer(api, 502, 'provider unreachable'));
      }
      calls.finish(id, { outcome: 'upstream_error', httpStatus: r.status ?? 502, ttftMs: r.ttftMs, durationMs: r.durationMs, endedAt });
      recorder.unspent({ ...facts, id, outcome: r.outcome, httpStatus: r.status, durationMs: r.durationMs, endedAt }, []);
      return;
    }

    const outcome: 'ok' | 'cut' | 'aborted' | 'capped' = r.outcome;
    const used = chargedTokens(r, est);
    const actual = prices.costOf({ model: priced, ...used });
    await deps.writes.run(() => {
      const transitions = ledger.settle(id, actual);
      calls.finish(id, {
        outcome, inputTokens: used.inputTokens, outputTokens: used.outputTokens,
        cacheReadTokens: used.cacheReadTokens, cacheWriteTokens: used.cacheWriteTokens, costUsd: actual,
        ttftMs: r.ttftMs, durationMs: r.durationMs, httpStatus: r.status, endedAt,
      });
      recorder.spent(
        {
          ...facts, id,
          inputTokens: used.inputTokens, outputTokens: used.outputTokens, cacheReadTokens: used.cacheReadTokens, cacheWriteTokens: used.cacheWriteTokens,
          endedAt, durationMs: r.durationMs, outcome, responseModel: r.responseModel,
        },
        transitions,
        actual,
      );
    });
  };
}

export type ModelCallHandler = ReturnType<typeof createModelCallHandler>;
