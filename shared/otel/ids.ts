// OTel ids from svc's ids. OTLP wants a 32-hex trace id and a 16-hex span id
// (lowercase, not all zeros); svc's ids are whatever the writer chose
// (UUIDs, W3C ids, free text). An id already in OTel form is kept as is (so
// traces that started outside svc stay joined); any other id is hashed, so
// the same svc id always maps to the same OTel id and a child's parent id
// matches its parent's span id without any shared state.
import { createHash } from 'node:crypto';

const HEX32 = /^[0-9a-f]{32}$/i;
const HEX16 = /^[0-9a-f]{16}$/i;
const ZEROS = /^0+$/;

function hashHex(scope: string, id: string, length: number): string {
  const hex = createHash('sha256').update(scope).update('\0').update(id).digest('hex').slice(0, length);
  // An all-zero id is invalid in OTel; a hash that yields one (odds 2^-64) gets one bit set.
  return ZEROS.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

/** svc's trace id as an OTel trace id: itself when already 32 hex digits, else a hash. */
export function otelTraceId(id: string): string {
  return HEX32.test(id) && !ZEROS.test(id) ? id.toLowerCase() : hashHex('trace', id, 32);
}

/** svc's span id as an OTel span id: itself when already 16 hex digits, else a hash. */
export function otelSpanId(id: string): string {
  return HEX16.test(id) && !ZEROS.test(id) ? id.toLowerCase() : hashHex('span', id, 16);
}

/** A trace id for spans whose rows carry none, derived from what groups them (a task, an event). */
export function derivedTraceId(scope: 'task' | 'event', id: string): string {
  return hashHex(`svc-${scope}`, id, 32);
}

/** A span id for a span whose rows carry none: from the id of the event that opened it. */
export function derivedSpanId(eventId: string): string {
  return hashHex('svc-event', eventId, 16);
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/i;

/**
 * The caller's trace and span of a W3C `traceparent` header, else null
 * (absent, malformed, version ff, all-zero ids). Version 00 has exactly four
 * fields; a later version may append more, which are ignored.
 */
export function parseTraceparent(header: string | string[] | undefined): { traceId: string; spanId: string } | null {
  if (typeof header !== 'string') return null;
  const m = TRACEPARENT.exec(header.trim());
  if (!m) return null;
  const [, version, traceId, spanId, , rest] = m as unknown as [string, string, string, string, string, string | undefined];
  if (version.toLowerCase() === 'ff' || (version === '00' && rest !== undefined)) return null;
  if (ZEROS.test(traceId) || ZEROS.test(spanId)) return null;
  return { traceId: traceId.toLowerCase(), spanId: spanId.toLowerCase() };
}
