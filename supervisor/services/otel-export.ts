// OTLP export of spans built from the event log, on only when an OTLP
// endpoint is configured. It listens on the events hub (every committed row
// once, svc's own and other processes'), queues the span-forming rows, and
// builds spans from them on a later turn of the event loop; finished spans
// go through the SDK (BatchSpanProcessor → OTLPTraceExporter, OTLP/HTTP
// JSON). Nothing here runs inside a request: a slow or dead collector costs
// a bounded queue and one log line a minute, never a request's latency.
//
// Why the SDK's tracer rather than hand-built ReadableSpans: the tracer
// applies attribute limits, fills resource and scope, and hands the
// processor a span it knows how to batch and serialize; ReadableSpan is an
// interface the SDK changed across majors. The one thing the tracer does
// not take is a chosen id, so a preset IdGenerator supplies the span id (and
// a root's trace id) that the span builder derived from svc's ids, set just
// before the synchronous startSpan() call that reads it. Parents are given
// as an explicit remote span context, never through the global context.
//
// A model call's span is CLIENT (the GenAI conventions' inference span),
// every other INTERNAL; the tracer's scope names the pinned conventions'
// schema URL (shared/otel/genai.ts), so a collector knows which names the
// attributes follow.
import { randomBytes } from 'node:crypto';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type Context } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  type IdGenerator,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import type { Config } from '../../shared/config.ts';
import type { EventRow } from '../../shared/events/types.ts';
import type { Logger } from '../../shared/log.ts';
import { createSpanBuilder, otlpTracesUrl, SEMCONV_SCHEMA_URL, SPAN_KINDS, throttled, type FinishedSpan, type Throttled } from '../../shared/otel/index.ts';
import type { Prices } from '../../shared/pricing/index.ts';
import type { StreamHub } from './stream-hub.ts';

export interface OtelExport {
  shutdown(): Promise<void>;
}

/** Per export request, retries included. */
export const EXPORT_TIMEOUT_MS = 5_000;
/** shutdown() waits at most this long for the last batch. */
export const SHUTDOWN_FLUSH_MS = 2_000;
const LOG_INTERVAL_MS = 60_000;
/** Rows waiting to become spans; past it rows are dropped (and counted) rather than held. */
const MAX_PENDING_ROWS = 10_000;
/** Rows turned into spans per turn of the event loop. */
const DRAIN_CHUNK = 500;

type ExportResult = Parameters<Parameters<SpanExporter['export']>[1]>[0];
// ExportResultCode (from @opentelemetry/core, not a direct dependency): SUCCESS is 0, FAILED is 1.
const FAILED = 1 as ExportResult['code'];

/** Hands out the ids set for the next span; random ones if none were set (never expected). */
class PresetIds implements IdGenerator {
  next: { traceId: string; spanId: string } | null = null;
  generateTraceId(): string {
    return this.next?.traceId ?? randomBytes(16).toString('hex');
  }
  generateSpanId(): string {
    return this.next?.spanId ?? randomBytes(8).toString('hex');
  }
}

/** The OTLP exporter, with failures logged (throttled) instead of going to the silent diag channel. */
class ReportingExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly warn: Throttled,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    try {
      this.inner.export(spans, (result) => {
        if (result.code !== 0) this.warn({ err: result.error, spans: spans.length }, 'OTLP export failed; these spans are dropped');
        done(result);
      });
    } catch (err) {
      this.warn({ err, spans: spans.length }, 'OTLP export threw; these spans are dropped');
      done({ code: FAILED, error: err instanceof Error ? err : new Error(String(err)) });
    }
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** Epoch ms as [seconds, nanoseconds]: explicit, so no number is mistaken for a performance.now() reading. */
function hrTime(ms: number): [number, number] {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

function parentContext(span: FinishedSpan): Context {
  if (span.parentSpanId === null) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: TraceFlags.SAMPLED, isRemote: true });
}

/** Waits for `work` at most `ms`; a rejection (even a late one) is returned, never left unhandled. */
async function within(ms: number, work: Promise<void>): Promise<'done' | 'timeout' | { err: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
    timer.unref();
  });
  const settled = work.then(() => 'done' as const, (err: unknown) => ({ err }));
  try {
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The URL without user info or query, for the log. */
const shown = (url: string) => {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
};

export function startOtelExport({ config, logger, events, prices }: { config: Config; logger: Logger; events: StreamHub<EventRow>; prices: Prices }): OtelExport {
  const target = otlpTracesUrl(config);
  if (target === null) return { shutdown: async () => undefined };
  if (!target.ok) {
    logger.warn({ reason: target.reason }, 'OTLP endpoint is not usable; trace export is off');
    return { shutdown: async () => undefined };
  }
  const log = logger.child({ component: 'otel-export' });
  // One throttle per kind of trouble, so a dead collector does not hide a backlog.
  const warnExport = throttled((fields, msg) => log.warn(fields, msg), LOG_INTERVAL_MS);
  const warnBacklog = throttled((fields, msg) => log.warn(fields, msg), LOG_INTERVAL_MS);
  const warnBuild = throttled((fields, msg) => log.warn(fields, msg), LOG_INTERVAL_MS);

  const exporter = new ReportingExporter(new OTLPTraceExporter({ url: target.url, headers: { ...config.otlpHeaders }, timeoutMillis: EXPORT_TIMEOUT_MS, concurrencyLimit: 2 }), warnExport);
  // Every option explicit, so the SDK's own OTEL_BSP_* / OTEL_TRACES_SAMPLER / limit fallbacks do not apply.
  const processor = new BatchSpanProcessor(exporter, {
    maxQueueSize: 2048,
    maxExportBatchSize: 512,
    scheduledDelayMillis: 1_000,
    exportTimeoutMillis: EXPORT_TIMEOUT_MS,
  });
  const ids = new PresetIds();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'svc', 'service.version': config.version }),
    sampler: new AlwaysOnSampler(),
    idGenerator: ids,
    spanProcessors: [processor],
    generalLimits: { attributeCountLimit: 64, attributeValueLengthLimit: 1024 },
    // One link: a model call's span under its caller's trace links back to svc's execution.
    spanLimits: { attributeCountLimit: 64, attributeValueLengthLimit: 1024, eventCountLimit: 0, linkCountLimit: 1 },
  });
  const tracer = provider.getTracer('svc.event-log', config.version, { schemaUrl: SEMCONV_SCHEMA_URL });
  const builder = createSpanBuilder({ prices });

  const emit = (s: FinishedSpan) => {
    ids.next = { traceId: s.traceId, spanId: s.spanId };
    try {
      const links = s.links.map((l) => ({ context: { traceId: l.traceId, spanId: l.spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true } }));
      const kind = s.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL;
      const span = tracer.startSpan(s.name, { kind, startTime: hrTime(s.startMs), attributes: s.attributes, links }, parentContext(s));
      if (s.error) span.setStatus({ code: SpanStatusCode.ERROR, ...(s.errorMessage !== undefined ? { message: s.errorMessage } : {}) });
      span.end(hrTime(s.endMs));
    } finally {
      ids.next = null;
    }
  };

  let pending: EventRow[] = [];
  let scheduled = false;
  let droppedRows = 0;
  let stopped = false;

  const drainChunk = (limit: number) => {
    const batch = pending.length <= limit ? pending : pending.slice(0, limit);
    pending = pending.length <= limit ? [] : pending.slice(limit);
    for (const row of batch) {
      try {
        for (const span of builder.push(row)) emit(span);
      } catch (err) {
        warnBuild({ err, seq: row.seq, kind: row.kind }, 'building a span from an event failed; the event is skipped');
      }
    }
  };

  const drain = () => {
    scheduled = false;
    if (stopped) return;
    drainChunk(DRAIN_CHUNK);
    if (droppedRows > 0) {
      warnBacklog({ droppedRows, stats: builder.stats() }, 'OTLP export fell behind; events were not turned into spans');
      droppedRows = 0;
    }
    if (pending.length > 0) schedule();
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(drain);
  };

  // Called inside the hub's delivery: filter and queue only, the work happens on a later turn.
  const unlisten = events.listen(
    (rows) => {
      if (stopped) return;
      for (const row of rows) {
        if (!SPAN_KINDS.has(row.kind)) continue;
        if (pending.length >= MAX_PENDING_ROWS) droppedRows++;
        else pending.push(row);
      }
      if (pending.length > 0) schedule();
    },
    (err) => warnBuild({ err }, 'queueing events for OTLP export failed'),
  );
  log.info({ url: shown(target.url) }, 'OTLP trace export on');

  return {
    async shutdown() {
      if (stopped) return;
      unlisten();
      // Spans from rows already delivered still go out with the last batch.
      drainChunk(Infinity);
      stopped = true;
      const r = await within(SHUTDOWN_FLUSH_MS, provider.shutdown());
      if (r === 'timeout') log.warn({ boundMs: SHUTDOWN_FLUSH_MS }, 'OTLP flush at shutdown did not finish in time; the rest is dropped');
      else if (r !== 'done') log.warn({ err: r.err }, 'OTLP flush at shutdown failed; the rest is dropped');
    },
  };
}
