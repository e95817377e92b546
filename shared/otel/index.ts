// Spans from the event log for OTLP export (pure; the SDK side is
// supervisor/services/otel-export.ts).
export { createSpanBuilder, SPAN_KINDS, DEFAULT_MAX_AGE_MS, DEFAULT_MAX_OPEN } from './span-builder.ts';
export type { FinishedSpan, SpanBuilder, SpanBuilderOptions, SpanBuilderStats, Attributes, SpanFamily } from './span-builder.ts';
export { otelSpanId, otelTraceId, derivedSpanId, derivedTraceId } from './ids.ts';
export { otlpTracesUrl, type TracesUrl } from './endpoint.ts';
export { throttled, type Throttled } from './throttle.ts';
