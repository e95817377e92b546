// Model-call spans by the OpenTelemetry GenAI conventions (issue 31, item 9),
// below the exporter: the rows shared/model-proxy/records.ts writes for a
// call that spent nothing (into a real event log on SQLite), turned into
// spans by shared/otel's builder; the caller's traceparent as the parent with
// svc's execution as a link; error.type per outcome; the traceparent parser.
// The exporter on a real socket: test/e2e/otel-genai.test.ts.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../shared/db/open.ts';
import { createTx } from '../../shared/db/tx.ts';
import { createEventLog } from '../../shared/events/event-log.ts';
import type { EventRow } from '../../shared/events/types.ts';
import { createLogger } from '../../shared/log.ts';
import type { CostRecords } from '../../shared/costs/index.ts';
import { createCallRecorder, writeCallRecords, type CallRecords, type UnspentCall } from '../../shared/model-proxy/records.ts';
import type { CallContext } from '../../shared/model-proxy/call-context.ts';
import { BUILT_IN_PRICES, type PriceBook } from '../../shared/pricing/index.ts';
import { createSpanBuilder, modelCallErrorType, otelSpanId, otelTraceId, parseTraceparent, providerName, type FinishedSpan } from '../../shared/otel/index.ts';

const S = 'Observability (issue 31, item 9)';
const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';

/** A recorder on a real event log; every committed row is kept. Nothing here spends, so no cost record is written. */
function recorder(t: TestContext): { unspent: ReturnType<typeof createCallRecorder>['unspent']; rows: EventRow[] } {
  const db = openDatabase(':memory:');
  t.after(() => db.close());
  const logger = createLogger({ level: 'silent' });
  const tx = createTx(db, (err) => logger.error({ err }, 'hook failed'));
  const rows: EventRow[] = [];
  const eventLog = createEventLog({ db, tx, logger, onCommitted: (committed) => rows.push(...committed) });
  const costs = { record: () => assert.fail('a call that spent nothing records no cost') } as unknown as CostRecords;
  const sink = (r: CallRecords) => void writeCallRecords({ tx, eventLog, costs }, [r]);
  return { unspent: createCallRecorder({ prices: { current: () => BUILT_IN_PRICES } as unknown as PriceBook, sink }).unspent, rows };
}

/** A call inside svc's execution of alice on task-1. */
const execCtx: CallContext = {
  sessionKey: 'agent:alice:team:t1', executionSessionKey: 'agent:alice:team:t1', teamId: 't1', taskId: 'task-1', teamIds: ['t1'], taskIds: ['task-1'],
  runId: 'run-1', executionId: 'exec-1', traceId: 'svc-trace-1', spanId: 'svc-exec-span',
};

const call = (over: Partial<UnspentCall>): UnspentCall => ({
  id: 'mc-1', agentId: 'alice', ctx: execCtx, traceId: 'svc-trace-1', provider: 'openai', model: 'openai/gpt-4o', maxTokens: 256,
  startedAt: 1_700_000_000_000, endedAt: 1_700_000_000_050, durationMs: 50, outcome: 'refused', ...over,
});

function spansOf(rows: EventRow[]): FinishedSpan[] {
  const builder = createSpanBuilder({ prices: BUILT_IN_PRICES });
  return rows.flatMap((r) => builder.push(r));
}

void test(`${S}: a refused call's span is a CLIENT \`chat <model>\` under the caller's traceparent, linked to svc's execution`, (t) => {
  const r = recorder(t);
  r.unspent(call({ traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01`, budgetId: 'budget-1', httpStatus: 200 }), []);
  const [span, ...rest] = spansOf(r.rows);
  assert.equal(rest.length, 0);
  assert.ok(span);
  assert.equal(span.kind, 'client');
  assert.equal(span.name, 'chat gpt-4o');
  assert.equal(span.traceId, CALLER_TRACE);
  assert.equal(span.parentSpanId, CALLER_SPAN);
  assert.deepEqual(span.links, [{ traceId: otelTraceId('svc-trace-1'), spanId: otelSpanId('svc-exec-span') }]);
  assert.equal(span.error, true);
  const a = span.attributes;
  assert.equal(a['gen_ai.operation.name'], 'chat');
  assert.equal(a['gen_ai.provider.name'], 'openai');
  assert.equal(a['gen_ai.request.model'], 'gpt-4o');
  assert.equal(a['gen_ai.request.max_tokens'], 256);
  assert.equal(a['gen_ai.agent.name'], 'alice');
  assert.equal(a['gen_ai.agent.id'], 'alice');
  assert.equal(a['gen_ai.conversation.id'], 'agent:alice:team:t1');
  assert.equal(a['error.type'], 'budget_refused');
  assert.equal(a['svc.budget_id'], 'budget-1');
  assert.equal(a['svc.trace_id'], 'svc-trace-1', "svc's own ids stay findable");
  assert.equal(a['svc.parent_span_id'], 'svc-exec-span');
  assert.equal(a['gen_ai.usage.input_tokens'], undefined);
  // The rows themselves stay on svc's trace, so svc's own views do not move.
  assert.ok(r.rows.every((row) => row.traceId === 'svc-trace-1' && row.parentSpanId === 'svc-exec-span'));
});

void test(`${S}: without a usable traceparent the span stays under svc's execution, with no link`, (t) => {
  for (const traceparent of [undefined, 'garbage', `ff-${CALLER_TRACE}-${CALLER_SPAN}-01`, `00-${'0'.repeat(32)}-${CALLER_SPAN}-01`, ['a', 'b']]) {
    const r = recorder(t);
    r.unspent(call({ traceparent, outcome: 'unreachable' }), []);
    const [span] = spansOf(r.rows);
    assert.equal(span?.traceId, otelTraceId('svc-trace-1'), JSON.stringify(traceparent));
    assert.equal(span?.parentSpanId, otelSpanId('svc-exec-span'));
    assert.deepEqual(span?.links, []);
    assert.equal(span?.attributes['error.type'], 'unreachable');
  }
});

void test(`${S}: error.type is the provider's HTTP status for its error, else the outcome; none when ok`, (t) => {
  assert.equal(modelCallErrorType('ok', 200), null);
  assert.equal(modelCallErrorType('refused', 200), 'budget_refused');
  assert.equal(modelCallErrorType('rejected', 400), 'request_rejected');
  assert.equal(modelCallErrorType('capped', 200), 'budget_capped');
  assert.equal(modelCallErrorType('ended', 200), 'runaway_ended');
  assert.equal(modelCallErrorType('upstream_error', 429), '429');
  assert.equal(modelCallErrorType('upstream_error', null), 'upstream_error');
  assert.equal(modelCallErrorType('unreachable', null), 'unreachable');
  assert.equal(modelCallErrorType('aborted', 200), 'aborted');
  assert.equal(modelCallErrorType('cut', 200), 'cut');
  assert.equal(modelCallErrorType('interrupted', null), 'interrupted');
  const r = recorder(t);
  r.unspent(call({ outcome: 'upstream_error', httpStatus: 503, provider: 'anthropic', model: 'anthropic/claude-sonnet-4-5', maxTokens: null }), []);
  const [span] = spansOf(r.rows);
  assert.equal(span?.attributes['error.type'], '503');
  assert.equal(span?.attributes['gen_ai.provider.name'], 'anthropic');
  assert.equal(span?.attributes['gen_ai.request.model'], 'claude-sonnet-4-5');
  assert.equal(span?.attributes['gen_ai.request.max_tokens'], undefined);
});

void test(`${S}: only a model call is a CLIENT span; a generic span, an execution and a tool call stay INTERNAL`, (t) => {
  const r = recorder(t);
  r.unspent(call({ outcome: 'refused', model: null }), []);
  const [model] = spansOf(r.rows);
  assert.equal(model?.name, 'chat', 'no model: the operation alone');
  assert.equal(model?.kind, 'client');
  let seq = 0;
  const row = (kind: EventRow['kind'], fields: Partial<EventRow>): EventRow => ({
    seq: ++seq, id: `e-${seq}`, ts: 1_700_000_000_000 + seq, kind, teamId: null, taskId: 'task-1', agentId: 'alice', runtime: null,
    traceId: null, spanId: null, parentSpanId: null, correlationId: null, data: '{}', tenantId: null, createdAt: 0, ...fields,
  });
  const others = spansOf([
    row('span_start', { spanId: 'plan', data: JSON.stringify({ name: 'plan' }) }), row('span_end', { spanId: 'plan' }),
    row('execution_started', {}), row('execution_completed', {}),
    row('tool_call', { correlationId: 'c1', data: JSON.stringify({ toolName: 'bash' }) }), row('tool_result', { correlationId: 'c1' }),
  ]);
  assert.deepEqual(others.map((s) => [s.family, s.kind]), [['span', 'internal'], ['execution', 'internal'], ['tool', 'internal']]);
});

void test(`${S}: the W3C traceparent parser keeps version 00 ids and refuses what the spec refuses`, () => {
  assert.deepEqual(parseTraceparent(`00-${CALLER_TRACE}-${CALLER_SPAN}-01`), { traceId: CALLER_TRACE, spanId: CALLER_SPAN });
  assert.deepEqual(parseTraceparent(` 00-${CALLER_TRACE.toUpperCase()}-${CALLER_SPAN}-00 `), { traceId: CALLER_TRACE, spanId: CALLER_SPAN });
  assert.deepEqual(parseTraceparent(`01-${CALLER_TRACE}-${CALLER_SPAN}-01-future`), { traceId: CALLER_TRACE, spanId: CALLER_SPAN }, 'a later version may add fields');
  for (const bad of [undefined, '', 'x', `00-${CALLER_TRACE}-${CALLER_SPAN}-01-extra`, `ff-${CALLER_TRACE}-${CALLER_SPAN}-01`,
    `00-${'0'.repeat(32)}-${CALLER_SPAN}-01`, `00-${CALLER_TRACE}-${'0'.repeat(16)}-01`, `00-${CALLER_TRACE.slice(1)}-${CALLER_SPAN}-01`, [`00-${CALLER_TRACE}-${CALLER_SPAN}-01`]]) {
    assert.equal(parseTraceparent(bad), null, JSON.stringify(bad));
  }
});

void test(`${S}: gen_ai.provider.name is the conventions' name for a known provider, else the upstream's own id`, () => {
  assert.equal(providerName('openai'), 'openai');
  assert.equal(providerName('google'), 'gcp.gemini');
  assert.equal(providerName('mistral'), 'mistral_ai');
  assert.equal(providerName('xai'), 'x_ai');
  assert.equal(providerName('amazon-bedrock'), 'aws.bedrock');
  assert.equal(providerName('my-llama-box'), 'my-llama-box');
});
