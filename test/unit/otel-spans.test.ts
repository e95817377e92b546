// shared/otel: spans from event-row sequences (pairing, ids, parents,
// attributes, the bounded open map), the traces URL rule and the log throttle.
// Spec "Events" (kinds) and "Orchestration event row" (fields).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fc } from '../helpers/fc.ts';
import type { EventRow } from '../../shared/events/types.ts';
import { traceMetrics } from '../../shared/obs/trace.ts';
import { BUILT_IN_PRICES, costUsd, createPrices } from '../../shared/pricing/index.ts';
import { createSpanBuilder, otelSpanId, otelTraceId, otlpTracesUrl, throttled, type FinishedSpan } from '../../shared/otel/index.ts';

let seq = 0;
function row(kind: EventRow['kind'], fields: Partial<Omit<EventRow, 'data'>> & { data?: unknown } = {}): EventRow {
  seq++;
  const { data, ...rest } = fields;
  return {
    seq, id: `evt-${seq}`, ts: 1_700_000_000_000 + seq * 1000, kind,
    teamId: null, taskId: null, agentId: null, runtime: null, traceId: null, spanId: null, parentSpanId: null, correlationId: null,
    data: typeof data === 'string' ? data : JSON.stringify(data ?? {}), tenantId: null, createdAt: 0,
    ...rest,
  };
}

function feed(rows: EventRow[], builder = createSpanBuilder({ prices: BUILT_IN_PRICES })): FinishedSpan[] {
  return rows.flatMap((r) => builder.push(r));
}

const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;
const W3C_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';

void test('Observability: OTLP export pairs span_start/span_end by spanId, with name, trace, parent and svc attributes', () => {
  const common = { teamId: 'team-a', taskId: 'task-1', agentId: 'agent-1', runtime: 'cli-a', traceId: W3C_TRACE };
  const start = row('span_start', { ...common, spanId: 'plan', parentSpanId: 'root', data: { name: 'plan the work' } });
  const end = row('span_end', { ...common, spanId: 'plan', ts: start.ts + 1500 });
  const [span, ...rest] = feed([start, row('task_created', common), end]);
  assert.equal(rest.length, 0);
  assert.ok(span);
  assert.equal(span.name, 'plan the work');
  assert.equal(span.family, 'span');
  assert.equal(span.traceId, W3C_TRACE, 'a trace id already in W3C form is kept');
  assert.match(span.spanId, HEX16);
  assert.equal(span.spanId, otelSpanId('plan'));
  assert.equal(span.parentSpanId, otelSpanId('root'), 'the parent is the hash of svc parent id, as the parent span itself gets');
  assert.deepEqual([span.startMs, span.endMs], [start.ts, start.ts + 1500]);
  assert.equal(span.error, false);
  assert.deepEqual(span.attributes, {
    'svc.span_kind': 'span', 'svc.start_seq': start.seq, 'svc.end_seq': end.seq,
    'svc.team_id': 'team-a', 'svc.task_id': 'task-1', 'svc.agent_id': 'agent-1', 'svc.runtime': 'cli-a',
    'svc.trace_id': W3C_TRACE, 'svc.span_id': 'plan', 'svc.parent_span_id': 'root',
  });
});

void test('Observability: OTLP export derives stable ids: W3C ids kept, others hashed to 32/16 lowercase hex (property)', () => {
  assert.equal(otelTraceId(W3C_TRACE.toUpperCase()), W3C_TRACE);
  assert.equal(otelSpanId('00f067aa0ba902b7'), '00f067aa0ba902b7');
  assert.notEqual(otelTraceId('0'.repeat(32)), '0'.repeat(32), 'the all-zero id is invalid in OTel and is hashed');
  fc.assert(
    fc.property(fc.string(), (id) => {
      const t = otelTraceId(id);
      const s = otelSpanId(id);
      return HEX32.test(t) && HEX16.test(s) && t === otelTraceId(id) && s === otelSpanId(id) && !/^0+$/.test(t) && !/^0+$/.test(s);
    }),
  );
});

void test('Observability: OTLP export makes an execution span with tokens and USD priced by the one pricing table', () => {
  const ctx = { agentId: 'agent-1', taskId: 'task-9', teamId: 'team-a', runtime: 'gateway' };
  const [span] = feed([
    row('execution_started', ctx),
    row('execution_completed', { ...ctx, data: { model: 'claude-sonnet-4-5', usage: { input_tokens: 1200, output_tokens: 300 } } }),
  ]);
  assert.ok(span);
  assert.equal(span.name, 'invoke_agent agent-1');
  assert.equal(span.family, 'execution');
  assert.match(span.traceId, HEX32, 'no trace id on the rows: one derived from the task');
  assert.equal(span.parentSpanId, null);
  assert.equal(span.attributes['gen_ai.usage.input_tokens'], 1200);
  assert.equal(span.attributes['gen_ai.usage.output_tokens'], 300);
  assert.equal(span.attributes['svc.cost_usd'], costUsd('claude-sonnet-4-5', 1200, 300));
  assert.equal(span.attributes['gen_ai.request.model'], 'claude-sonnet-4-5');
  assert.equal(span.attributes['gen_ai.operation.name'], 'invoke_agent');
  const stated = feed([row('execution_started', ctx), row('execution_completed', { ...ctx, data: { inputTokens: 10, outputTokens: 5, costUsd: 0.5 } })]);
  assert.equal(stated[0]?.attributes['svc.cost_usd'], 0.5, 'USD the event states wins over the table');
});

void test('Observability: OTLP export adds cost events to the open execution they belong to', () => {
  const ctx = { agentId: 'agent-2', correlationId: 'run-7' };
  const [span] = feed([
    row('execution_started', ctx),
    row('cost', { ...ctx, data: { model: 'gpt-4o', inputTokens: 1000, outputTokens: 100 } }),
    row('cost', { ...ctx, data: { inputTokens: 500, outputTokens: 50, costUsd: 0.01 } }),
    row('cost', { agentId: 'someone-else', correlationId: 'run-7', data: { inputTokens: 9999 } }),
    row('execution_completed', { ...ctx, data: { status: 'ok' } }),
  ]);
  assert.ok(span);
  assert.equal(span.attributes['gen_ai.usage.input_tokens'], 1500);
  assert.equal(span.attributes['gen_ai.usage.output_tokens'], 150);
  assert.equal(span.attributes['svc.cost_usd'], costUsd('gpt-4o', 1000, 100) + 0.01);
});

void test('Observability: OTLP export pairs tool_call/tool_result by correlationId, nests it in the open execution, marks errors', () => {
  const exec = { agentId: 'agent-1', taskId: 'task-3' };
  const spans = feed([
    row('execution_started', exec),
    row('tool_call', { ...exec, correlationId: 'call-1', data: { toolName: 'bash', args: '••••' } }),
    row('tool_call', { ...exec, correlationId: 'call-2', data: { toolName: 'read_file' } }),
    row('tool_result', { ...exec, correlationId: 'call-2', data: { ok: true } }),
    row('tool_result', { ...exec, correlationId: 'call-1', data: { isError: true, error: 'exit code 2' } }),
    row('execution_completed', exec),
  ]);
  const [read, bash, execution] = spans;
  assert.ok(read && bash && execution);
  assert.deepEqual(spans.map((s) => s.name), ['execute_tool read_file', 'execute_tool bash', 'invoke_agent agent-1']);
  assert.equal(read.error, false);
  assert.equal(bash.error, true);
  assert.equal(bash.errorMessage, 'exit code 2');
  assert.equal(bash.parentSpanId, execution.spanId, 'a tool call without a parent runs in its agent execution on the task');
  assert.equal(bash.traceId, execution.traceId);
  assert.equal(bash.attributes['gen_ai.tool.name'], 'bash');
  assert.equal(bash.attributes['svc.correlation_id'], 'call-1');
  assert.equal(bash.attributes['args'], undefined, 'nothing from data but the figures reaches the attributes');
  // Failed as svc's own tool error rate counts it: isError === true or ok === false.
  for (const [data, failed] of [[{ ok: false, error: { message: 'boom' } }, true], [{ error: 'no flag' }, false], [{ status: 'error' }, false], [{ isError: 'yes' }, false]] as const) {
    const [s] = feed([row('tool_call', { correlationId: 'x' }), row('tool_result', { correlationId: 'x', data })]);
    assert.equal(s?.error, failed, JSON.stringify(data));
  }
  const [failedRun] = feed([row('execution_started', { taskId: 'f' }), row('execution_completed', { taskId: 'f', data: { status: 'failed', error: { message: 'oom' } } })]);
  assert.equal(failedRun?.error, true, 'an execution may fail by status');
  assert.equal(failedRun?.errorMessage, 'oom');
});

void test('Observability: OTLP export exports an end without a start as a marked span; an end without a key is dropped', () => {
  const builder = createSpanBuilder({ prices: BUILT_IN_PRICES });
  const end = row('tool_result', { correlationId: 'lost', data: { toolName: 'grep', durationMs: 250, inputTokens: 3 } });
  const [span] = builder.push(end);
  assert.ok(span);
  assert.equal(span.name, 'execute_tool grep');
  assert.deepEqual([span.startMs, span.endMs], [end.ts - 250, end.ts]);
  assert.equal(span.attributes['svc.unmatched_end'], true);
  assert.equal(span.attributes['gen_ai.usage.input_tokens'], 3);
  const [zero] = builder.push(row('span_end', { spanId: 's1' }));
  assert.equal(zero?.startMs, zero?.endMs, 'no duration known: zero-length');
  assert.deepEqual(builder.push(row('span_end', {})), [], 'no spanId: nothing to export');
  assert.deepEqual(builder.stats(), { open: 0, evicted: 0, unmatchedEnds: 2, droppedEnds: 1 });
});

void test('Observability: OTLP export keeps open spans bounded by a cap and an age limit', () => {
  let now = 0;
  const builder = createSpanBuilder({ prices: BUILT_IN_PRICES, maxOpen: 3, maxAgeMs: 1000, now: () => now });
  for (let i = 0; i < 5; i++) builder.push(row('span_start', { spanId: `s${i}` }));
  assert.equal(builder.stats().open, 3);
  assert.equal(builder.stats().evicted, 2);
  assert.equal(builder.push(row('span_end', { spanId: 's0' }))[0]?.attributes['svc.unmatched_end'], true, 'the oldest went first');
  assert.equal(builder.push(row('span_end', { spanId: 's4' }))[0]?.attributes['svc.unmatched_end'], undefined);
  now = 5000;
  builder.push(row('span_start', { spanId: 'fresh' }));
  assert.deepEqual(builder.stats(), { open: 1, evicted: 4, unmatchedEnds: 1, droppedEnds: 0 }, 'expired spans are dropped on the next start');
});

void test('Observability: OTLP export tolerates bad data and clock skew', () => {
  const start = row('span_start', { spanId: 'k', data: 'not json' });
  const [span] = feed([start, row('span_end', { spanId: 'k', ts: start.ts - 5000, data: '[1,2]' })]);
  assert.ok(span);
  assert.equal(span.name, 'span');
  assert.equal(span.endMs, span.startMs, 'an end stamped before its start ends at the start');
  const [typed] = feed([row('execution_started', { taskId: 't' }), row('execution_completed', { taskId: 't', data: { inputTokens: 'lots', outputTokens: -1, name: 7 } })]);
  assert.equal(typed?.attributes['gen_ai.usage.input_tokens'], undefined, 'wrong-typed figures are ignored');
  assert.deepEqual(feed([row('tool_call', {})]), [], 'a start no end can match is not kept');
});

void test('Observability: OTLP export posts to the traces endpoint as is, or the generic endpoint plus /v1/traces', () => {
  assert.equal(otlpTracesUrl({ otlpEndpoint: null, otlpTracesEndpoint: null }), null);
  assert.deepEqual(otlpTracesUrl({ otlpEndpoint: 'http://127.0.0.1:4318', otlpTracesEndpoint: null }), { ok: true, url: 'http://127.0.0.1:4318/v1/traces' });
  assert.deepEqual(otlpTracesUrl({ otlpEndpoint: 'http://127.0.0.1:4318/', otlpTracesEndpoint: null }), { ok: true, url: 'http://127.0.0.1:4318/v1/traces' });
  assert.deepEqual(
    otlpTracesUrl({ otlpEndpoint: 'http://127.0.0.1:4318', otlpTracesEndpoint: 'http://127.0.0.1:6006/api/otel' }),
    { ok: true, url: 'http://127.0.0.1:6006/api/otel' },
    'the traces endpoint wins and gets nothing appended',
  );
  assert.equal(otlpTracesUrl({ otlpEndpoint: 'not a url', otlpTracesEndpoint: null })?.ok, false);
  assert.equal(otlpTracesUrl({ otlpEndpoint: 'grpc://127.0.0.1:4317', otlpTracesEndpoint: null })?.ok, false);
});

void test('Observability: OTLP export logs a recurring failure at most once per interval, with the count suppressed', () => {
  let now = 0;
  const lines: Record<string, unknown>[] = [];
  const warn = throttled((fields) => lines.push(fields), 60_000, () => now);
  warn({ n: 1 }, 'x');
  now = 59_999;
  warn({ n: 2 }, 'x');
  warn({ n: 3 }, 'x');
  now = 60_000;
  warn({ n: 4 }, 'x');
  assert.deepEqual(lines, [{ n: 1 }, { n: 4, suppressed: 2 }]);
});

void test('Trace metrics and OTLP export: a trace costs the same in the built-in metrics and in the exported span, whatever spelling the cost events use, at the configured prices', () => {
  const common = { traceId: W3C_TRACE, spanId: 'work' };
  const rows = [
    row('span_start', { ...common, data: { name: 'work' } }),
    row('cost', { ...common, data: { model: 'no-such-model', usage: { prompt_tokens: 1000, completion_tokens: 200 } } }),
    row('cost', { ...common, data: { cost_usd: 0.5, input_tokens: 10, output_tokens: 5 } }),
    row('cost', { ...common, data: { inputTokens: 2000, outputTokens: 0 } }),
    row('span_end', common),
  ];
  // The gateway's config prices the model (the only provider that lists it): 1 in, 2 out per million.
  const prices = createPrices(new Map([['acme/no-such-model', { input: 1, output: 2 }]]));
  const [span] = feed(rows, createSpanBuilder({ prices }));
  const metrics = traceMetrics(rows, prices);
  const expected = (1000 * 1 + 200 * 2) / 1e6 + 0.5 + costUsd(null, 2000, 0);
  assert.ok(Math.abs(metrics.totalCostUsd - expected) < 1e-12, `metrics ${metrics.totalCostUsd} vs ${expected}`);
  assert.equal(span?.attributes['svc.cost_usd'], metrics.totalCostUsd);
  assert.equal(metrics.inputTokens, 3010);
  assert.equal(span?.attributes['gen_ai.usage.input_tokens'], 3010);
  assert.equal(span?.attributes['gen_ai.usage.output_tokens'], metrics.outputTokens);
});

void test('Observability: OTLP export makes a model call through svc a GenAI `chat` span with its provider, tokens and USD (issue 22)', () => {
  // The rows shared/model-proxy/records.ts writes for one finished call.
  const ctx = { agentId: 'alice', teamId: 'team-a', traceId: W3C_TRACE, spanId: 'call-1', parentSpanId: 'exec-1', correlationId: 'mc-1' };
  const [span, ...rest] = feed([
    row('span_start', { ...ctx, data: { name: 'chat fake/gpt-4o', model: 'fake/gpt-4o', operation: 'chat', system: 'fake' } }),
    row('cost', { ...ctx, data: { modelCallId: 'mc-1', model: 'fake/gpt-4o', inputTokens: 1200, outputTokens: 80, usd: 0.0038, source: 'svc-endpoint' } }),
    row('span_end', { ...ctx, data: { name: 'chat fake/gpt-4o', model: 'fake/gpt-4o', durationMs: 120, outcome: 'ok', status: 'ok' } }),
  ]);
  assert.equal(rest.length, 0);
  assert.ok(span);
  assert.equal(span.name, 'chat fake/gpt-4o');
  assert.equal(span.parentSpanId, otelSpanId('exec-1'));
  assert.equal(span.kind, 'client');
  assert.equal(span.attributes['gen_ai.operation.name'], 'chat');
  // Rows written before the v1.37 names: `system` is read as the provider, the model loses svc's prefix.
  assert.equal(span.attributes['gen_ai.provider.name'], 'fake');
  assert.equal(span.attributes['gen_ai.system'], undefined);
  assert.equal(span.attributes['gen_ai.request.model'], 'gpt-4o');
  assert.equal(span.attributes['gen_ai.usage.input_tokens'], 1200);
  assert.equal(span.attributes['gen_ai.usage.output_tokens'], 80);
  assert.equal(span.attributes['svc.cost_usd'], 0.0038);
  // A generic span names no operation of its own unless its data says so.
  const [plain] = feed([row('span_start', { spanId: 'x', data: { name: 'plan' } }), row('span_end', { spanId: 'x' })]);
  assert.equal(plain?.attributes['gen_ai.operation.name'], undefined);
});
