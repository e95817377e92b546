// OTLP export on real sockets: svc as a child process with
// OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local OTLP/HTTP receiver (this
// file's node:http server on 127.0.0.1, decoding the JSON it is sent), events
// from the ingest route and from another process writing svc.db, and spans
// asserted as the receiver decoded them. Then a collector that is down: the
// caller sees no difference. Spec "Boot report" (otelActive), "Settings and
// health" (otelExporterReachable), "Events". Issue 16 #5: nothing here is
// timed; "none twice" and "logged once" are read after a later event that
// must come after any repeat (a marker span, svc's own exit).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { openDatabase } from '../../shared/db/open.ts';
import { createTx } from '../../shared/db/tx.ts';
import { createEventLog } from '../../shared/events/event-log.ts';
import type { EventInput } from '../../shared/events/types.ts';
import { createLogger } from '../../shared/log.ts';
import { otelSpanId } from '../../shared/otel/index.ts';
import { costUsd } from '../../shared/pricing/index.ts';
import { startServer, stopAfter } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

interface OtlpValue { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean }
interface OtlpSpan {
  traceId: string; spanId: string; parentSpanId?: string; name: string;
  startTimeUnixNano: string | number; endTimeUnixNano: string | number;
  attributes?: { key: string; value: OtlpValue }[];
  status?: { code?: number; message?: string };
}
interface Received { resource: Record<string, unknown>; span: OtlpSpan }

const valueOf = (v: OtlpValue): unknown => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.doubleValue ?? v.boolValue;
const attrs = (list: { key: string; value: OtlpValue }[] = []) => Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/** A local OTLP/HTTP (JSON) receiver: records every span POSTed to /v1/traces. */
async function otlpReceiver(): Promise<{ server: Server; port: number; spans: Received[]; posts: () => number }> {
  const spans: Received[] = [];
  let posts = 0;
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      res.writeHead(404).end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      posts++;
      assert.match(String(req.headers['content-type']), /application\/json/);
      const decoded = JSON.parse(body) as { resourceSpans: { resource?: { attributes?: { key: string; value: OtlpValue }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[] };
      for (const rs of decoded.resourceSpans) {
        for (const ss of rs.scopeSpans) for (const span of ss.spans) spans.push({ resource: attrs(rs.resource?.attributes), span });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  return { server, port: typeof addr === 'object' && addr ? addr.port : 0, spans, posts: () => posts };
}

/** Appends rows to svc.db as another process (an MCP binary) would. */
function writeRows(home: string, rows: EventInput[]): void {
  const db = openDatabase(join(home, 'svc.db'), { migrate: false });
  const logger = createLogger({ level: 'silent' });
  createEventLog({ db, tx: createTx(db, (err) => logger.error({ err }, 'hook failed')), logger }).appendMany(rows);
  db.close();
}

const ingest = (base: string, events: unknown[]) =>
  fetch(`${base}/api/obs/ingest`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ events }) });

/** A collector that is down in the way that matters: every export POST is read, counted, and its connection dropped unanswered. */
async function droppingCollector(): Promise<{ server: Server; port: number; exports: () => number }> {
  let exports = 0;
  const server = createServer((req) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces' && body.includes('resourceSpans')) exports++;
      req.socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  return { server, port: typeof addr === 'object' && addr ? addr.port : 0, exports: () => exports };
}

const TRACE = '5b8efff798038103d269b633813fc60c';

void test('Observability: OTLP export sends spans from span_start/span_end, executions and tool calls to the collector', async (t) => {
  const rx = await otlpReceiver();
  t.after(() => rx.server.close());
  const s = stopAfter(t, await startServer({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${rx.port}`, SVC_TAIL_INTERVAL_MS: '100' } }));

  const health = (await (await fetch(`${s.base}/api/health`)).json()) as { config: { otelActive: boolean }; checks: { id: string; ok: boolean }[]; degraded: string[] };
  assert.equal(health.config.otelActive, true);
  assert.equal(health.checks.find((c) => c.id === 'otelExporterReachable')?.ok, true);
  assert.ok(!health.degraded.includes('otelExporterReachable'));

  const ctx = { teamId: 'team-a', taskId: 'task-1', agentId: 'agent-1', runtime: 'cli-a', traceId: TRACE };
  const t0 = Date.now();
  // Another process opens a span and an execution inside it ...
  writeRows(s.home, [
    { kind: 'span_start', ...ctx, ts: t0, spanId: 'root-span', data: { name: 'plan the work' } },
    { kind: 'execution_started', ...ctx, ts: t0 + 10, spanId: 'exec-1', parentSpanId: 'root-span' },
  ]);
  // ... a tool call inside the execution comes in through the ingest route ...
  const r = await ingest(s.base, [
    { kind: 'tool_call', ...ctx, ts: t0 + 20, correlationId: 'call-1', data: { toolName: 'bash', command: 'ls', apiKey: 'sk-live-abcdef0123456789' } },
    { kind: 'tool_result', ...ctx, ts: t0 + 70, correlationId: 'call-1', data: { isError: true, error: 'exit code 2' } },
  ]);
  assert.equal(r.status, 200);
  // ... and the other process records the cost and closes both.
  writeRows(s.home, [
    { kind: 'cost', ...ctx, ts: t0 + 80, data: { model: 'claude-sonnet-4-5', inputTokens: 2000, outputTokens: 400 } },
    { kind: 'execution_completed', ...ctx, ts: t0 + 90, data: { status: 'ok' } },
    { kind: 'span_end', ...ctx, ts: t0 + 100, spanId: 'root-span' },
  ]);

  await waitFor(() => rx.spans.length >= 3, { what: 'three spans at the receiver' });
  // A marker span written after everything above: its rows come after theirs
  // in the log, so a repeat of any earlier span would be exported before it.
  writeRows(s.home, [
    { kind: 'span_start', traceId: TRACE, ts: t0 + 200, spanId: 'marker', data: { name: 'marker' } },
    { kind: 'span_end', traceId: TRACE, ts: t0 + 201, spanId: 'marker' },
  ]);
  await waitFor(() => rx.spans.some((x) => x.span.name === 'marker'), { what: 'the marker span at the receiver' });
  assert.equal(rx.spans.filter((x) => x.span.name !== 'marker').length, 3, 'one span per pair, none twice');
  const byName = new Map(rx.spans.map((x) => [x.span.name, x]));
  const root = byName.get('plan the work');
  const exec = byName.get('invoke_agent agent-1');
  const tool = byName.get('execute_tool bash');
  assert.ok(root && exec && tool, `names: ${[...byName.keys()].join(', ')}`);

  for (const x of [root, exec, tool]) {
    assert.equal(x.span.traceId, TRACE, 'the W3C trace id svc was given');
    assert.equal(x.resource['service.name'], 'svc');
    assert.equal(typeof x.resource['service.version'], 'string');
  }
  assert.equal(root.span.spanId, otelSpanId('root-span'));
  assert.ok(!root.span.parentSpanId, 'the root has no parent');
  assert.equal(exec.span.spanId, otelSpanId('exec-1'));
  assert.equal(exec.span.parentSpanId, root.span.spanId);
  assert.equal(tool.span.parentSpanId, exec.span.spanId, 'the tool call nests in the execution on its task');
  assert.equal(BigInt(root.span.endTimeUnixNano) - BigInt(root.span.startTimeUnixNano), 100_000_000n, 'times are the rows ts');

  const e = attrs(exec.span.attributes);
  assert.equal(e['gen_ai.usage.input_tokens'], 2000);
  assert.equal(e['gen_ai.usage.output_tokens'], 400);
  assert.equal(e['svc.cost_usd'], costUsd('claude-sonnet-4-5', 2000, 400));
  assert.equal(e['svc.team_id'], 'team-a');
  assert.equal(e['svc.task_id'], 'task-1');
  assert.equal(e['svc.agent_id'], 'agent-1');
  assert.equal(e['svc.runtime'], 'cli-a');
  assert.equal(e['svc.span_id'], 'exec-1');

  assert.equal(tool.span.status?.code, 2, 'STATUS_CODE_ERROR');
  assert.equal(tool.span.status?.message, 'exit code 2');
  const ta = attrs(tool.span.attributes);
  assert.equal(ta['gen_ai.tool.name'], 'bash');
  assert.equal(ta['svc.correlation_id'], 'call-1');
  assert.equal(root.span.status?.code ?? 0, 0);
  const everything = JSON.stringify(rx.spans);
  assert.ok(!everything.includes('sk-live-abcdef0123456789') && !everything.includes('"ls"'), 'no data fields beyond the figures, no secrets');
});

void test('Observability: OTLP export with the collector down changes nothing for the caller', async (t) => {
  const collector = await droppingCollector();
  t.after(() => collector.server.close());
  const s = stopAfter(t, await startServer({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.port}` } }));

  const health = (await (await fetch(`${s.base}/api/health`)).json()) as { ok: boolean; config: { otelActive: boolean }; degraded: string[] };
  assert.equal(health.ok, true, 'a down collector degrades, never fails, the boot');
  assert.equal(health.config.otelActive, true);
  assert.ok(health.degraded.includes('otelExporterReachable'));

  // Spans are built and exported (and fail, with retries) while requests go on.
  const pair = (n: number) => [
    { kind: 'tool_call', agentId: 'a', correlationId: `c-${n}`, data: { toolName: 'bash' } },
    { kind: 'tool_result', agentId: 'a', correlationId: `c-${n}`, data: { ok: true } },
  ];
  assert.equal((await ingest(s.base, pair(0))).status, 200);
  await waitFor(() => s.output().includes('OTLP export failed'), { what: 'the first export to fail' });
  // Requests go on while exports keep failing.
  for (let n = 1; n <= 20; n++) {
    const r = await ingest(s.base, pair(n));
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), { ok: true, count: 2 });
  }
  const feed = (await (await fetch(`${s.base}/api/obs/events?limit=100`)).json()) as { events: unknown[] };
  assert.equal(feed.events.length, 42, 'every ingested event is in the log');
  await waitFor(() => collector.exports() >= 2, { what: 'a second export batch to fail' });

  // A span still queued at shutdown: svc still exits on SIGTERM by itself (stop() would SIGKILL a hang: no exit code 0).
  assert.equal((await ingest(s.base, pair(99))).status, 200);
  assert.equal(await s.stop(), 0, 'svc stops cleanly');
  // Read once svc has exited, so every line it would ever write is there.
  assert.equal(s.output().split('OTLP export failed').length - 1, 1, `logged once, not per batch (${collector.exports()} batches failed)`);
});
