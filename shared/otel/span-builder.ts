// Spans from the orchestration event log, pure (no SDK, no I/O): rows go in
// in seq order, finished spans come out.
//
//   span_start / span_end            one span per spanId; name from data.name
//   execution_started / _completed   one span per (agentId, taskId or correlationId)
//   tool_call / tool_result          one span per correlationId (else spanId, else data.toolCallId)
//   cost                             adds tokens and USD to the open span it belongs to
//
// USD as an event states it, else from its tokens at the builder's prices
// (shared/pricing: the operator's prices first, then the price library), as
// the trace metrics price them.
//
// Error status: a tool result with isError === true or ok === false (what
// svc's own tool error rate counts); a span_end or execution_completed with
// that, or with status error/failed/failure.
//
// Open spans wait in a bounded map (a cap and an age limit), so a start whose
// end never comes cannot grow memory: the oldest is dropped and counted.
// An end without a start (its start came before this boot, or was dropped)
// is still exported, as a span that ends at the end row and starts
// data.durationMs earlier (zero-length without it), marked
// svc.unmatched_end: the end row carries the outcome (tokens, cost, error)
// that a collector is there to see. An end with no key at all is dropped.
import type { EventRow } from '../events/types.ts';
import type { Prices } from '../pricing/index.ts';
import { attributesOf, type Attributes, type ModelCallFacts, type SpanFamily, type Usage } from './attributes.ts';
import { eventFacts, type EventFacts } from './event-data.ts';
import { isInference } from './genai.ts';
import { derivedSpanId, derivedTraceId, otelSpanId, otelTraceId } from './ids.ts';

export type { Attributes, SpanFamily } from './attributes.ts';

export interface SpanLink {
  traceId: string;
  spanId: string;
}

export interface FinishedSpan {
  name: string;
  family: SpanFamily;
  /** OTel span kind: `client` for a model call (the GenAI conventions' inference span), else `internal`. */
  kind: 'client' | 'internal';
  /** 32 lowercase hex. */
  traceId: string;
  /** 16 lowercase hex. */
  spanId: string;
  parentSpanId: string | null;
  /** svc's own parent when the caller's context took its place (at most one). */
  links: SpanLink[];
  startMs: number;
  endMs: number;
  error: boolean;
  errorMessage?: string;
  attributes: Attributes;
}

export interface SpanBuilderOptions {
  /** What a usage without its USD is priced at (read at each event: the supervisor's price book). */
  prices: Prices;
  /** Open spans kept at most; past it the oldest is dropped. */
  maxOpen?: number;
  /** An open span older than this (by when it was opened here) is dropped. */
  maxAgeMs?: number;
  now?: () => number;
}

export interface SpanBuilderStats {
  open: number;
  evicted: number;
  unmatchedEnds: number;
  droppedEnds: number;
}

export interface SpanBuilder {
  /** Feeds one row; returns the spans it finished (zero, or one). */
  push(row: EventRow): FinishedSpan[];
  stats(): SpanBuilderStats;
}

export const DEFAULT_MAX_OPEN = 10_000;
export const DEFAULT_MAX_AGE_MS = 6 * 60 * 60_000;
const MAX_NAME = 128;

/** The kinds that take part in spans; the exporter ignores the rest before queueing. */
export const SPAN_KINDS: ReadonlySet<EventRow['kind']> = new Set([
  'span_start', 'span_end', 'execution_started', 'execution_completed', 'tool_call', 'tool_result', 'cost',
]);

interface OpenSpan {
  family: SpanFamily;
  row: EventRow;
  facts: EventFacts;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  links: SpanLink[];
  openedAt: number;
  /** Sum of the `cost` events that landed on this span. */
  costs: Usage | null;
}

const FAMILY_OF_START: Partial<Record<EventRow['kind'], SpanFamily>> = { span_start: 'span', execution_started: 'execution', tool_call: 'tool' };
const FAMILY_OF_END: Partial<Record<EventRow['kind'], SpanFamily>> = { span_end: 'span', execution_completed: 'execution', tool_result: 'tool' };

function keyOf(family: SpanFamily, row: EventRow, facts: EventFacts): string | null {
  if (family === 'span') return row.spanId === null ? null : `span:${row.spanId}`;
  if (family === 'execution') {
    const scope = row.taskId ?? row.correlationId;
    return scope === null ? null : `exec:${row.agentId ?? ''}\0${scope}`;
  }
  const id = row.correlationId ?? row.spanId ?? facts.callId ?? null;
  return id === null ? null : `tool:${id}`;
}

function usageOf(facts: EventFacts, prices: Prices): Usage | null {
  if (facts.inputTokens === undefined && facts.outputTokens === undefined && facts.costUsd === undefined) return null;
  const input = facts.inputTokens ?? 0;
  const output = facts.outputTokens ?? 0;
  return { inputTokens: input, outputTokens: output, costUsd: facts.costUsd ?? prices.costOf({ model: facts.model, inputTokens: input, outputTokens: output }), model: facts.model };
}

const addUsage = (a: Usage | null, b: Usage): Usage =>
  a === null ? b : { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens, costUsd: a.costUsd + b.costUsd, model: a.model ?? b.model };

function nameOf(family: SpanFamily, row: EventRow, facts: EventFacts): string {
  const name =
    family === 'span' ? (facts.name ?? 'span')
    : family === 'execution' ? (row.agentId ? `invoke_agent ${row.agentId}` : 'invoke_agent')
    : facts.toolName ? `execute_tool ${facts.toolName}` : 'execute_tool';
  return name.slice(0, MAX_NAME);
}

/** A model call's facts: what was asked from its start row, how it ended from its end row (each falling back on the other). */
function callFacts(start: EventFacts, end: EventFacts): ModelCallFacts {
  return {
    provider: start.provider ?? end.provider,
    requestModel: start.requestModel ?? end.requestModel,
    maxTokens: start.maxTokens ?? end.maxTokens,
    agentName: start.agentName ?? end.agentName,
    conversationId: start.conversationId ?? end.conversationId,
    responseModel: end.responseModel ?? start.responseModel,
    outcome: end.outcome ?? start.outcome,
    errorType: end.errorType ?? start.errorType,
    budgetId: end.budgetId ?? start.budgetId,
  };
}

export function createSpanBuilder(opts: SpanBuilderOptions): SpanBuilder {
  const { prices } = opts;
  const maxOpen = opts.maxOpen ?? DEFAULT_MAX_OPEN;
  const maxAgeMs = opts.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  const now = opts.now ?? Date.now;
  // Insertion order is age order: the oldest open span is always first.
  const open = new Map<string, OpenSpan>();
  let evicted = 0;
  let unmatchedEnds = 0;
  let droppedEnds = 0;

  /** Drops expired spans, and the oldest while the map is full, so one more fits. */
  const sweep = (t: number) => {
    for (const [key, s] of open) {
      if (t - s.openedAt <= maxAgeMs && open.size < maxOpen) break;
      open.delete(key);
      evicted++;
    }
  };

  /** svc's own trace and parent of a span opened or closed by `row`. */
  const svcPlacement = (row: EventRow, family: SpanFamily) => {
    // A tool call with no explicit parent runs inside its agent's open execution on the task.
    const exec = family === 'tool' && row.parentSpanId === null && row.taskId !== null ? open.get(`exec:${row.agentId ?? ''}\0${row.taskId}`) : undefined;
    const parentOpen = row.parentSpanId !== null ? open.get(`span:${row.parentSpanId}`) : undefined;
    const parentSpanId = row.parentSpanId !== null ? otelSpanId(row.parentSpanId) : (exec?.spanId ?? null);
    const traceId =
      row.traceId !== null ? otelTraceId(row.traceId)
      : (parentOpen ?? exec)?.traceId ?? (row.taskId !== null ? derivedTraceId('task', row.taskId) : derivedTraceId('event', row.id));
    return { traceId, parentSpanId };
  };

  /** Trace and parent of a span opened or closed by `row`, with no start to inherit from: the caller's context, else svc's. */
  const placement = (row: EventRow, family: SpanFamily, facts: EventFacts): { traceId: string; parentSpanId: string | null; links: SpanLink[] } => {
    const own = svcPlacement(row, family);
    if (facts.callerTraceId === undefined || facts.callerSpanId === undefined) return { ...own, links: [] };
    const caller = { traceId: facts.callerTraceId, parentSpanId: facts.callerSpanId };
    const { traceId, parentSpanId } = own;
    const distinct = parentSpanId !== null && (traceId !== caller.traceId || parentSpanId !== caller.parentSpanId);
    return { ...caller, links: distinct ? [{ traceId, spanId: parentSpanId }] : [] };
  };

  const start = (family: SpanFamily, row: EventRow): void => {
    const facts = eventFacts(row.data);
    const key = keyOf(family, row, facts);
    // A start that no end could ever match is not kept.
    if (key === null) return;
    const t = now();
    open.delete(key);
    sweep(t);
    open.set(key, {
      // The data text is not kept: its facts are, and an open span should cost little.
      family, row: { ...row, data: '' }, facts, ...placement(row, family, facts),
      spanId: row.spanId !== null ? otelSpanId(row.spanId) : derivedSpanId(row.id),
      openedAt: t, costs: null,
    });
  };

  const finish = (family: SpanFamily, end: EventRow): FinishedSpan[] => {
    const endFacts = eventFacts(end.data);
    const key = keyOf(family, end, endFacts);
    if (key === null) {
      droppedEnds++;
      return [];
    }
    const s = open.get(key);
    open.delete(key);
    if (s === undefined) unmatchedEnds++;
    const startRow = s?.row ?? end;
    const startFacts = s?.facts ?? endFacts;
    const startMs = s ? s.row.ts : end.ts - (endFacts.durationMs ?? 0);
    // The end's figures are the run's total; cost events are the fallback, then the start's.
    const usage = usageOf(endFacts, prices) ?? s?.costs ?? usageOf(startFacts, prices);
    const ids = s ?? { ...placement(end, family, endFacts), spanId: end.spanId !== null ? otelSpanId(end.spanId) : derivedSpanId(end.id) };
    const facts = { ...startFacts, name: startFacts.name ?? endFacts.name, toolName: startFacts.toolName ?? endFacts.toolName };
    const operation = startFacts.operation ?? endFacts.operation;
    // A tool result fails as svc's error rate counts it; spans and executions may also say so by status.
    const error = endFacts.failed || (family !== 'tool' && endFacts.statusError);
    return [{
      name: nameOf(family, startRow, facts),
      family,
      kind: family === 'span' && isInference(operation) ? 'client' : 'internal',
      traceId: ids.traceId,
      spanId: ids.spanId,
      parentSpanId: ids.parentSpanId,
      links: ids.links,
      startMs,
      // Rows of two processes may disagree on the clock: a span never ends before it starts.
      endMs: Math.max(end.ts, startMs),
      error,
      ...(error && endFacts.errorMessage !== undefined ? { errorMessage: endFacts.errorMessage } : {}),
      attributes: attributesOf({
        family, start: startRow, end, toolName: facts.toolName, model: facts.model ?? endFacts.model,
        operation, call: isInference(operation) ? callFacts(startFacts, endFacts) : undefined, usage, unmatched: s === undefined,
      }),
    }];
  };

  const addCost = (row: EventRow): void => {
    const usage = usageOf(eventFacts(row.data), prices);
    if (usage === null) return;
    const scope = row.taskId ?? row.correlationId;
    const target = (row.spanId !== null ? open.get(`span:${row.spanId}`) : undefined) ?? (scope !== null ? open.get(`exec:${row.agentId ?? ''}\0${scope}`) : undefined);
    if (target) target.costs = addUsage(target.costs, usage);
  };

  return {
    push(row) {
      const startFamily = FAMILY_OF_START[row.kind];
      if (startFamily) {
        start(startFamily, row);
        return [];
      }
      const endFamily = FAMILY_OF_END[row.kind];
      if (endFamily) return finish(endFamily, row);
      if (row.kind === 'cost') addCost(row);
      return [];
    },
    stats: () => ({ open: open.size, evicted, unmatchedEnds, droppedEnds }),
  };
}
