// Fallback metering per model call (issue 22 #2; docs/gateway-facts.md, "Usage
// and cost"): on a connection subscribed with `sessions.subscribe`, the
// gateway sends a `session.message` for each message of a session, an
// assistant message (one per model call) with its provider, model, usage and
// run id, as soon as that call ended. A call of a run svc follows whose
// provider is not one of svc's routing providers (routing off, an OAuth
// provider) is spent into the budgets here, and a budget that spend pauses
// halts the run at once: after that call, not after the run. The run's end
// then meters only what this did not (run-budget.ts).
// A call is priced by the cost records' price book (shared/pricing), as the
// run's end prices it: its `<provider>/<model>`, cache tokens at the cache
// prices where configured.
import { z } from 'zod';
import type { EventInput } from '../../events/types.ts';
import type { BudgetStop, RunScope } from './budget-halt.ts';
import type { TeamChatContext } from '../context.ts';
import { GatewayMessage, isRoutedProvider } from '../runs/usage.ts';

const SessionMessage = z.object({ sessionKey: z.string(), message: GatewayMessage.extend({ role: z.string() }) });

/** A run svc follows, as the meter needs it: whose spend it is, and how to halt it. */
export interface MeteredTarget {
  scope: Omit<RunScope, 'model'>;
  base: Omit<EventInput, 'kind'>;
  executionId: string;
  /** Halts the run for the budget its spend paused (the note, the abort). */
  halt(stop: BudgetStop): void;
}

export interface CallMeter {
  /** One `session.message` payload: metered when it is an unrouted model call of a run svc follows. */
  onMessage(payload: unknown): void;
  /** What was metered per call for the run (USD), forgotten now: its end meters the rest. */
  take(runId: string): number;
}

/** How many ended runs are remembered; a session.message comes within moments of its call, long before the run's end. */
const ENDED_KEPT = 1000;

const tokens = (n: number | undefined) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.trunc(n) : 0);

export function createCallMeter(ctx: TeamChatContext, find: (gatewaySessionKey: string, runId: string) => MeteredTarget | null): CallMeter {
  /** Per run: the calls metered (a repeated event is counted once) and their sum. */
  const metered = new Map<string, { keys: Set<string>; usd: number }>();
  /** Runs whose end was metered: a late event of theirs is not counted again (the newest few are kept). */
  const ended = new Set<string>();
  return {
    onMessage(payload) {
      if (!ctx.budgets) return;
      const p = SessionMessage.safeParse(payload);
      if (!p.success) return;
      const m = p.data.message;
      const runId = m.__openclaw?.runId;
      // Routed calls were reserved and settled by svc's model endpoint already.
      if (m.role !== 'assistant' || !runId || !m.usage || isRoutedProvider(m.provider)) return;
      if (ended.has(runId)) return;
      const target = find(p.data.sessionKey, runId);
      if (!target) return;
      const key = m.responseId ?? m.__openclaw?.id ?? null;
      const seen = metered.get(runId) ?? { keys: new Set<string>(), usd: 0 };
      if (key !== null && seen.keys.has(key)) return;
      const model = m.model ? (m.provider ? `${m.provider}/${m.model}` : m.model) : null;
      // The gateway counts cache tokens apart from `input`; priced, they are input tokens (usage.ts).
      const cacheReadTokens = tokens(m.usage.cacheRead);
      const cacheWriteTokens = tokens(m.usage.cacheWrite);
      const inputTokens = tokens(m.usage.input) + cacheReadTokens + cacheWriteTokens;
      const usd = ctx.costs.prices.costOf({ model, inputTokens, outputTokens: tokens(m.usage.output), cacheReadTokens, cacheWriteTokens });
      if (key !== null) seen.keys.add(key);
      seen.usd += usd;
      metered.set(runId, seen);
      // A run that failed never asks (take): the oldest entries go, so the map stays small.
      if (metered.size > ENDED_KEPT) metered.delete(metered.keys().next().value as string);
      if (usd <= 0) return;
      let stop: BudgetStop | null = null;
      try {
        stop = ctx.budgets.recordSpend({ ...target.scope, model }, usd, target.base);
      } catch (err) {
        // Not counted now: the run's end meters what this missed (take() returns less).
        seen.usd -= usd;
        ctx.logger.error({ err, executionId: target.executionId, usd }, 'team chat: budget metering of a model call failed');
        return;
      }
      if (stop) target.halt(stop);
    },
    take(runId) {
      const seen = metered.get(runId);
      metered.delete(runId);
      ended.add(runId);
      if (ended.size > ENDED_KEPT) ended.delete(ended.values().next().value as string);
      return seen?.usd ?? 0;
    },
  };
}

/** The host's gateway connection as the meter uses it. */
export interface MeterConnection {
  on(event: string, handler: (frame: { payload: unknown }) => void): () => void;
  onStatus(handler: (s: { state: string }) => void): void;
  request(method: string, params?: unknown, opts?: { timeoutMs?: number; waitMs?: number }): Promise<unknown>;
}

/**
 * Meters the calls of the runs `find` knows, from the connection's `session.message` events: the
 * connection subscribes to them on every connect (a subscription lives as long as its session).
 */
export function followCalls(ctx: TeamChatContext, connection: MeterConnection, find: (gatewaySessionKey: string, runId: string) => MeteredTarget | null): CallMeter {
  const meter = createCallMeter(ctx, find);
  connection.on('session.message', (frame) => meter.onMessage(frame.payload));
  connection.onStatus((s) => {
    if (s.state !== 'connected' || !ctx.budgets) return;
    connection.request('sessions.subscribe', {}, { timeoutMs: 10_000, waitMs: 0 }).catch((err: unknown) => {
      // Without it the runs are still metered, at their end (run-budget.ts): later, not never.
      ctx.logger.warn({ err: String(err) }, 'team chat: sessions.subscribe failed; budgets are metered per run, not per call');
    });
  });
  return meter;
}
