// Model-call spans by the OpenTelemetry GenAI semantic conventions (issue 31,
// item 9; the version pinned in shared/otel/genai.ts). Calls go through svc's
// real model endpoint (test/http/model-endpoint-fixture.ts: the real app on a
// real socket, fake providers on loopback); svc's real OTLP exporter reads the
// app's event hub and posts to this file's OTLP/HTTP receiver on 127.0.0.1,
// and each span is asserted as the receiver decoded it: an answered call, a
// call refused at a budget cap and a provider's error, each a CLIENT span
// named `chat <model>`, the caller's `traceparent` kept as its parent.
// Nothing is timed: every wait is for a span to arrive.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createLogger } from '../../shared/log.ts';
import { startOtelExport } from '../../supervisor/services/otel-export.ts';
import { waitFor } from '../helpers/wait.ts';
import { PRICED_MODEL, callsOf, completionsBody, createBudget, post, startEndpoint, type Endpoint } from '../http/model-endpoint-fixture.ts';

const S = 'Observability (issue 31, item 9): OTLP export';
const COMPLETIONS = '/model/alice/v1/chat/completions';
const MESSAGES = '/model/bob/v1/messages';
const SCHEMA_URL = 'https://opentelemetry.io/schemas/1.37.0';
/** OTLP's SpanKind: CLIENT. */
const CLIENT = 3;
const STATUS_ERROR = 2;

interface OtlpValue { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean }
interface OtlpSpan {
  traceId: string; spanId: string; parentSpanId?: string; name: string; kind?: number;
  attributes?: { key: string; value: OtlpValue }[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number; message?: string };
}
interface Received { schemaUrl: string | undefined; span: OtlpSpan; attrs: Record<string, unknown> }

const valueOf = (v: OtlpValue): unknown => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.doubleValue ?? v.boolValue;
const attrsOf = (list: { key: string; value: OtlpValue }[] = []) => Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/** A local OTLP/HTTP (JSON) receiver: records every span POSTed to /v1/traces, with its scope's schema URL. */
async function otlpReceiver(): Promise<{ server: Server; url: string; spans: Received[] }> {
  const spans: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const decoded = JSON.parse(body) as { resourceSpans: { scopeSpans: { schemaUrl?: string; spans: OtlpSpan[] }[] }[] };
      for (const rs of decoded.resourceSpans) {
        for (const ss of rs.scopeSpans) for (const span of ss.spans) spans.push({ schemaUrl: ss.schemaUrl, span, attrs: attrsOf(span.attributes) });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  return { server, url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`, spans };
}

/** svc's real exporter on the endpoint's event hub, posting to the receiver. */
async function exportedEndpoint(t: TestContext): Promise<{ e: Endpoint; spans: Received[] }> {
  const rx = await otlpReceiver();
  t.after(() => rx.server.close());
  const e = await startEndpoint(t);
  const otel = startOtelExport({
    config: { ...e.config, otlpEndpoint: rx.url, otlpTracesEndpoint: null },
    logger: createLogger({ level: 'warn' }),
    events: e.runtime.deps.hubs.events,
    prices: e.runtime.deps.gatewayPrices.book,
  });
  t.after(() => otel.shutdown());
  return { e, spans: rx.spans };
}

/** The span of the model call `callId` (its correlation id), once it has arrived. */
const spanOf = (spans: Received[], callId: string) =>
  waitFor(() => spans.find((x) => x.attrs['svc.correlation_id'] === callId), { what: `the span of model call ${callId}` });

const traceparent = (traceId: string, spanId: string) => `00-${traceId}-${spanId}-01`;
const hex = (c: string, n: number) => c.repeat(n);

void test(`${S}: an answered call is a CLIENT span \`chat <model>\` under the caller's traceparent, with the GenAI attributes`, async (t) => {
  const { e, spans } = await exportedEndpoint(t);
  const callerTrace = hex('a1', 16);
  const callerSpan = hex('b2', 8);
  const r = await post(e, COMPLETIONS, e.tokens.alice, completionsBody('hello there', { max_tokens: 64 }), { traceparent: traceparent(callerTrace, callerSpan) });
  assert.equal(r.status, 200);
  await r.text();
  const [call] = await waitFor(async () => {
    const calls = await callsOf(e, '?agentId=alice');
    return calls[0]?.outcome === 'ok' ? calls : undefined;
  }, { what: 'the call to end ok' });
  const x = await spanOf(spans, call!.id as string);

  assert.equal(x.span.kind, CLIENT);
  assert.equal(x.span.name, `chat ${PRICED_MODEL}`);
  assert.equal(x.schemaUrl, SCHEMA_URL, 'the scope names the pinned conventions');
  assert.equal(x.span.traceId, callerTrace, "the caller's trace");
  assert.equal(x.span.parentSpanId, callerSpan, "the caller's span is the parent");
  assert.equal(x.span.status?.code ?? 0, 0);
  assert.equal(x.attrs['gen_ai.operation.name'], 'chat');
  assert.equal(x.attrs['gen_ai.provider.name'], 'fake', "the upstream's own id: not one of the conventions' providers");
  assert.equal(x.attrs['gen_ai.request.model'], PRICED_MODEL, "without svc's `<upstream>/` prefix");
  assert.equal(x.attrs['gen_ai.request.max_tokens'], 64);
  assert.equal(x.attrs['gen_ai.response.model'], PRICED_MODEL, 'the model the provider says answered');
  assert.equal(x.attrs['gen_ai.agent.name'], 'alice');
  assert.equal(x.attrs['gen_ai.usage.input_tokens'], call!.inputTokens);
  assert.equal(x.attrs['gen_ai.usage.output_tokens'], call!.outputTokens);
  assert.ok((x.attrs['gen_ai.usage.output_tokens'] as number) > 0);
  assert.equal(x.attrs['error.type'], undefined);
  assert.equal(x.attrs['gen_ai.system'], undefined, 'the pre-1.37 name is gone');
});

void test(`${S}: a call refused at a budget cap is a span too, with error.type budget_refused and the caller's parent`, async (t) => {
  const { e, spans } = await exportedEndpoint(t);
  const budget = await createBudget(e, { scope: 'agent', scopeId: 'alice', limitUsdCents: 1, mode: 'cap' });
  const callerTrace = hex('c3', 16);
  const callerSpan = hex('d4', 8);
  const r = await post(e, COMPLETIONS, e.tokens.alice, completionsBody('refuse me', { max_tokens: 100_000 }), { traceparent: traceparent(callerTrace, callerSpan) });
  assert.equal(r.status, 200, 'a refusal is a normal answer to the caller');
  await r.text();
  const [call] = await callsOf(e, '?agentId=alice');
  assert.equal(call?.outcome, 'refused');
  assert.equal(e.openai.requests.length, 0, 'nothing reached the provider');
  const x = await spanOf(spans, call!.id as string);

  assert.equal(x.span.kind, CLIENT);
  assert.equal(x.span.name, `chat ${PRICED_MODEL}`);
  assert.equal(x.span.traceId, callerTrace);
  assert.equal(x.span.parentSpanId, callerSpan);
  assert.equal(x.span.status?.code, STATUS_ERROR);
  assert.equal(x.attrs['error.type'], 'budget_refused');
  assert.equal(x.attrs['svc.budget_id'], budget.id);
  assert.equal(x.attrs['gen_ai.request.model'], PRICED_MODEL);
  assert.equal(x.attrs['gen_ai.request.max_tokens'], 100_000);
  assert.equal(x.attrs['gen_ai.usage.output_tokens'], undefined, 'no usage: nothing was generated');
});

void test(`${S}: a provider's error is a span with its HTTP status as error.type; without a traceparent the span stays under svc's own trace`, async (t) => {
  const { e, spans } = await exportedEndpoint(t);
  const body = { model: 'claude-sonnet-4-5', max_tokens: 300, stream: true, messages: [{ role: 'user', content: 'HTTP429: now' }] };
  const r = await post(e, MESSAGES, e.tokens.bob, body);
  assert.equal(r.status, 429);
  await r.text();
  const [call] = await waitFor(async () => {
    const calls = await callsOf(e, '?agentId=bob');
    return calls[0]?.outcome === 'upstream_error' ? calls : undefined;
  }, { what: 'the call to end in the provider’s error' });
  const x = await spanOf(spans, call!.id as string);

  assert.equal(x.span.kind, CLIENT);
  assert.equal(x.span.name, 'chat claude-sonnet-4-5');
  assert.equal(x.span.status?.code, STATUS_ERROR);
  assert.equal(x.attrs['error.type'], '429');
  assert.equal(x.attrs['gen_ai.provider.name'], 'anthropic');
  assert.equal(x.attrs['gen_ai.request.model'], 'claude-sonnet-4-5');
  assert.equal(x.attrs['gen_ai.request.max_tokens'], 300);
  assert.equal(x.attrs['svc.outcome'], 'upstream_error');
  // No caller context and no svc execution: a root span, in no trace but its own.
  assert.ok(!x.span.parentSpanId, 'a root span');
  assert.deepEqual(x.span.links ?? [], [], 'nothing to link back to');
});

void test(`${S}: a request svc rejects before any budget (n over its limit) is a span with error.type request_rejected`, async (t) => {
  const { e, spans } = await exportedEndpoint(t);
  const callerTrace = hex('e5', 16);
  const callerSpan = hex('f6', 8);
  const r = await post(e, COMPLETIONS, e.tokens.alice, completionsBody('many answers', { n: 128 }), { traceparent: traceparent(callerTrace, callerSpan) });
  assert.equal(r.status, 400);
  await r.text();
  assert.equal(e.openai.requests.length, 0, 'nothing reached the provider');
  const x = await waitFor(() => spans.find((s) => s.span.traceId === callerTrace), { what: 'the span of the rejected request' });
  assert.equal(x.span.kind, CLIENT);
  assert.equal(x.span.name, `chat ${PRICED_MODEL}`);
  assert.equal(x.span.parentSpanId, callerSpan);
  assert.equal(x.span.status?.code, STATUS_ERROR);
  assert.equal(x.attrs['error.type'], 'request_rejected');
  assert.equal(x.attrs['svc.correlation_id'], undefined, 'no model_calls row: the request never became a call');
});
