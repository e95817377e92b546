// Spans from the event log for OTLP export (pure; the SDK side is
// supervisor/services/otel-export.ts).
export { createSpanBuilder, SPAN_KINDS, DEFAULT_MAX_AGE_MS, DEFAULT_MAX_OPEN } from './span-builder.ts';
export type { FinishedSpan, SpanLink, SpanBuilder, SpanBuilderOptions, SpanBuilderStats, Attributes, SpanFamily } from './span-builder.ts';
export { otelSpanId, otelTraceId, derivedSpanId, derivedTraceId, parseTraceparent } from './ids.ts';
export { ATTR, MODEL_CALL_ERROR_TEXT, SEMCONV_SCHEMA_URL, SEMCONV_VERSION, modelCallErrorType, providerName, requestModelOf, type ModelCallOutcome } from './genai.ts';
export { otlpTracesUrl, type TracesUrl } from './endpoint.ts';
export { throttled, type Throttled } from './throttle.ts';
