// One model call through svc's endpoint, start to end: the `open` row, the
// reservation under every budget that applies, then either the refusal (a
// cap said no) or the pass-through, and the settlement:
//   ok                      settled at the usage's cost (the estimate when the
//                           provider sent no usage: the side that never lets
//                           spend through)
//   cut / aborted           settled at what was seen: the usage if it came,
//                           else the estimate's input plus the streamed
//                           output characters / 4 as output tokens
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
import type { Tx } from '../db/tx.ts';
import type { Logger } from '../log.ts';
import type { ModelCalls } from '../model-calls/index.ts';
import type { ResolvedUpstream, RoutedApi } from '../model-routing/registry.ts';
import { traceIdOf, upstreamHeaders, upstreamUrl, withUsageRequested } from './api.ts';
import type { CallContextReader } from './call-context.ts';
import { estimateCall, tokensOfChars, type Estimate } from './estimate.ts';
import { forward, type ForwardResult } from './forward.ts';
import { eventBase, type CallRecorder } from './records.ts';
import { refusalAnswer, refusalText } from './refusal.ts';
import type { CallUsage } from './usage.ts';

export interface BudgetHaltRequest {
  agentId: string;
  sessionKey: string;
  budgetLabel: string;
  budgetId: string;
}

export interface ModelCallDeps {
  /** One commit for the row and its reservation, one for its end and settlement (the ledger nests in it). */
  tx: Tx;
  calls: ModelCalls;
  ledger: BudgetLedger;
  context: CallContextReader;
  recorder: CallRecorder;
  logger: Logger;
  /** The team chat's halt (E); must not throw into the endpoint, and is guarded here too. */
  haltForBudget: (req: BudgetHaltRequest) => Promise<void>;
  headersTimeoutMs: number;
  now?: () => number;
}

export interface ModelCallRequest {
  agentId: string;
  api: RoutedApi;
  upstream: ResolvedUpstream;
  /** The request body as received (its size is the estimate's input). */
  raw: Buffer;
  body: Record<string, unknown>;
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
  if (r.outcome === 'ok') return u ?? { inputTokens: est.inputTokens, outputTokens: est.outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 };
  return {
    inputTokens: u?.inputTokens || est.inputTokens,
    outputTokens: Math.max(u?.outputTokens ?? 0, tokensOfChars(r.outputChars)),
    cacheReadTokens: u?.cacheReadTokens ?? 0,
    cacheWriteTokens: u?.cacheWriteTokens ?? 0,
  };
}

export function createModelCallHandler(deps: ModelCallDeps) {
  const { calls, ledger, context, recorder, logger } = deps;
  const now = deps.now ?? Date.now;

  // Awaited before the refusal is answered: the run is then still live when the
  // team chat halts it (the refusal itself ends the run at the gateway).
  const halt = async (req: BudgetHaltRequest): Promise<void> => {
    try {
      await deps.haltForBudget(req);
    } catch (err) {
      logger.warn({ err, agentId: req.agentId, budgetId: req.budgetId }, 'model endpoint: the budget halt failed; the next call is refused again');
    }
  };

  return async function handle(req: ModelCallRequest): Promise<void> {
    const { agentId, api, upstream, raw, body, res } = req;
    const model = typeof body.model === 'string' ? body.model : null;
    const priced = model === null ? null : `${upstream.id}/${model}`;
    const stream = body.stream === true;
    const est = estimateCall(recorder.prices, priced, raw.length, body);
    const ctx = context.of(agentId, body);
    const traceId = ctx.traceId ?? traceIdOf(req.headers.traceparent);
    const startedAt = now();
    const { id, reserved } = deps.tx.run(() => {
      const callId = calls.open({
        agentId, teamId: ctx.teamId, taskId: ctx.taskId, sessionKey: ctx.sessionKey, runId: ctx.runId,
        traceId: traceIdOf(req.headers.traceparent) ?? ctx.traceId, provider: upstream.id, api, model, estimateUsd: est.usd, startedAt,
      });
      return { id: callId, reserved: ledger.reserve(callId, { agentId, teamId: ctx.teamId, taskId: ctx.taskId, model }, est.usd) };
    });
    if (!reserved.ok) {
      const label = budgetLabel(reserved.refusedBy);
      calls.finish(id, {
        outcome: 'refused', inputTokens: 0, outputTokens: 0, costUsd: 0, httpStatus: 200, budgetId: reserved.refusedBy.id,
        durationMs: performance.now() - req.receivedAt, endedAt: now(),
      });
      recorder.transitions(eventBase(agentId, ctx, traceId), reserved.transitions);
      if (ctx.sessionKey !== null) await halt({ agentId, sessionKey: ctx.sessionKey, budgetLabel: label, budgetId: reserved.refusedBy.id });
      const answer = refusalAnswer(api, { id, model, stream, text: refusalText(label, capText(reserved.refusedBy)), nowMs: startedAt });
      res.writeHead(200, { 'content-type': answer.contentType, 'cache-control': 'no-cache' });
      res.end(answer.body);
      return;
    }

    const send = withUsageRequested(api, raw, body);
    let r: ForwardResult;
    try {
      r = await forward({
        url: new URL(upstreamUrl(upstream, api)), headers: upstreamHeaders(req.headers, upstream, send.length), body: send,
        api, res, startedAt: req.receivedAt, headersTimeoutMs: deps.headersTimeoutMs,
      });
    } catch (err) {
      // forward() settles every network outcome itself; a throw here is a
      // bug (a bad URL in the registry): nothing was spent.
      ledger.release(id);
      calls.finish(id, { outcome: 'upstream_error', durationMs: performance.now() - req.receivedAt, endedAt: now() });
      throw err;
    }
    const endedAt = now();

    if (r.outcome === 'upstream_error' || r.outcome === 'unreachable') {
      ledger.release(id);
      if (r.outcome === 'unreachable') {
        logger.warn({ agentId, upstream: upstream.id, error: r.error }, 'model endpoint: provider unreachable');
        if (!res.headersSent) {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'provider unreachable', type: 'api_error' } }));
        }
      }
      calls.finish(id, { outcome: 'upstream_error', httpStatus: r.status ?? 502, ttftMs: r.ttftMs, durationMs: r.durationMs, endedAt });
      return;
    }

    const outcome: 'ok' | 'cut' | 'aborted' = r.outcome;
    const used = chargedTokens(r, est);
    const actual = recorder.prices.costOf({ model: priced, ...used });
    deps.tx.run(() => {
      const transitions = ledger.settle(id, actual);
      calls.finish(id, {
        outcome, inputTokens: used.inputTokens, outputTokens: used.outputTokens,
        cacheReadTokens: used.cacheReadTokens, cacheWriteTokens: used.cacheWriteTokens, costUsd: actual,
        ttftMs: r.ttftMs, durationMs: r.durationMs, httpStatus: r.status, endedAt,
      });
      recorder.spent(
        {
          id, agentId, ctx, traceId, provider: upstream.id, model: priced,
          inputTokens: used.inputTokens, outputTokens: used.outputTokens, cacheReadTokens: used.cacheReadTokens, cacheWriteTokens: used.cacheWriteTokens,
          startedAt, endedAt, durationMs: r.durationMs, outcome,
        },
        transitions,
      );
    });
  };
}

export type ModelCallHandler = ReturnType<typeof createModelCallHandler>;
