// The frames of svc's POST streams (install-gateway, gateway start and
// restart, self-update): SSE events whose data is one JSON object with a
// `type` of progress | output | error | complete (spec "System (host and
// gateway)"). Pure: eventsource-parser does the SSE framing, parseFrame
// checks each data payload; nothing here touches the DOM or React, so
// node:test imports it directly (test/unit/ui-jobs.test.ts).
import { createParser } from 'eventsource-parser';
import type { OpStreamFrame } from './types.ts';

export type JobFrame = OpStreamFrame;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (o: Obj, k: string): o is Obj => typeof o[k] === 'string';
const optNum = (o: Obj, k: string) => o[k] === undefined || typeof o[k] === 'number';
const optStr = (o: Obj, k: string) => o[k] === undefined || typeof o[k] === 'string';

/** One SSE data payload as a frame; null when it is not JSON or not a frame of the catalogue. */
export function parseFrame(data: string): JobFrame | null {
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    // Not JSON: not one of ours (a proxy's keep-alive text); the caller counts it.
    return null;
  }
  if (!isObj(v)) return null;
  switch (v.type) {
    case 'progress':
      return str(v, 'step') && str(v, 'message') ? { type: 'progress', step: v.step as string, message: v.message as string } : null;
    case 'output':
      return str(v, 'line') ? { type: 'output', line: v.line as string } : null;
    case 'error':
      return str(v, 'code') && str(v, 'message') ? { type: 'error', code: v.code as string, message: v.message as string } : null;
    case 'complete':
      if (v.success !== true || !optNum(v, 'pid') || !optNum(v, 'port') || !optStr(v, 'message') || !optStr(v, 'version')) return null;
      return {
        type: 'complete',
        success: true,
        ...(v.pid !== undefined ? { pid: v.pid as number } : {}),
        ...(v.port !== undefined ? { port: v.port as number } : {}),
        ...(v.message !== undefined ? { message: v.message as string } : {}),
        ...(v.version !== undefined ? { version: v.version as string } : {}),
      };
    default:
      return null;
  }
}

export interface FrameReader {
  /** A chunk of the response body as text (any split: mid-line, mid-frame). */
  feed(chunk: string): void;
}

/** Splits a text/event-stream body into frames; data that is not a frame goes to `onInvalid`. */
export function createFrameReader(onFrame: (f: JobFrame) => void, onInvalid: (data: string) => void = () => undefined): FrameReader {
  const parser = createParser({
    onEvent(ev) {
      const frame = parseFrame(ev.data);
      if (frame) onFrame(frame);
      else onInvalid(ev.data);
    },
  });
  return { feed: (chunk) => parser.feed(chunk) };
}

/** `Waiting for gateway... (n/120)` → { n, total }; null for any other message. */
export function pollCount(message: string): { n: number; total: number } | null {
  const m = /\((\d+)\s*\/\s*(\d+)\)\s*$/.exec(message);
  if (!m) return null;
  const n = Number(m[1]);
  const total = Number(m[2]);
  return total > 0 && n >= 0 ? { n: Math.min(n, total), total } : null;
}
