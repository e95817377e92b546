// What the broker stores about arguments and results: bounded, masked text.
// Masking runs before clipping, so a secret cannot survive as a prefix cut
// below the patterns' minimum length; a string too large to scan in
// reasonable time is cut first (a 64 KiB prefix still masks whole secrets).
import { maskData, maskText } from '../redact.ts';

/** Longest stored summary (characters). */
export const SUMMARY_MAX = 4000;
const STRING_SCAN_MAX = 64 * 1024;
const STRING_KEEP = 1000;
const MAX_ITEMS = 50;
const MAX_DEPTH = 8;
const TRUNCATED = '…[truncated]';

function clipText(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max) + TRUNCATED;
}

/** A JSON-safe copy of bounded size: long strings, arrays and objects are cut, odd types named. */
function bound(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.length > STRING_SCAN_MAX ? value.slice(0, STRING_SCAN_MAX) : value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'boolean' || value === null) return value;
  if (typeof value === 'bigint') return value.toString();
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return `[${typeof value}]`;
  if (depth >= MAX_DEPTH) return '[nested]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => bound(v, depth + 1));
    if (value.length > MAX_ITEMS) items.push(`[+${value.length - MAX_ITEMS} more]`);
    return items;
  }
  // fromEntries, not assignment: a `__proto__` key stays an ordinary key.
  const entries = Object.entries(value as object);
  const kept: Array<[string, unknown]> = entries.slice(0, MAX_ITEMS).map(([k, v]) => [k, bound(v, depth + 1)]);
  if (entries.length > MAX_ITEMS) kept.push(['…', `${entries.length - MAX_ITEMS} more keys omitted`]);
  return Object.fromEntries(kept);
}

function clipStrings(value: unknown): unknown {
  if (typeof value === 'string') return clipText(value, STRING_KEEP);
  if (Array.isArray(value)) return value.map(clipStrings);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clipStrings(v)]));
  }
  return value;
}

/** Arguments as stored: masked JSON text of at most SUMMARY_MAX characters; null for undefined. */
export function summarizeArgs(value: unknown): string | null {
  if (value === undefined) return null;
  const text = JSON.stringify(clipStrings(maskData(bound(value, 0))));
  return clipText(text, SUMMARY_MAX);
}

/** Free text (a result, an error message) as stored: masked and bounded. */
export function summarizeText(text: string): string {
  return clipText(maskText(text.length > STRING_SCAN_MAX ? text.slice(0, STRING_SCAN_MAX) : text), SUMMARY_MAX);
}
