// Server-Sent Events: headers, the `: connected` comment, framing and the
// 20 s keepalive, in one place: no other file spells a `data:` or `id:`
// line. One interval serves every open stream. A client that stops reading
// is dropped once its unsent buffer passes a bound, so one stuck tab cannot
// grow the server's memory. At most `maxStreams` streams are open at once
// (SVC_MAX_STREAMS): one more is refused with 503 before the reply is taken
// over.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './http-error.ts';

export const KEEPALIVE_MS = 20_000;
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export const tooManyStreams = (limit: number) => `too many open streams (limit ${limit})`;

export interface SseStream {
  /** Writes raw, already-framed text. Returns false when the stream is closed. */
  write(chunk: string | Buffer): boolean;
  close(): void;
  readonly closed: boolean;
  onClose(cb: () => void): void;
  /** Resolves once what was written has left svc's buffer for the socket (at once if it has), or the stream closed. */
  drained(): Promise<void>;
}

// The frames svc writes, and the only place that spells SSE's wire format.
// `json` is one JSON text: JSON.stringify never emits a raw newline, so it
// fits one `data:` line.

/** A frame a client can resume from: its `id` is the stream cursor (Last-Event-ID). */
export function frameRow(id: number, json: string): string {
  return `id: ${id}\ndata: ${json}\n\n`;
}

/** A frame without a cursor (the system routes' operation frames). */
export function frameData(json: string): string {
  return `data: ${json}\n\n`;
}

/** A named frame without a cursor (the team chat's tier-2 signals: `delta`, `status`, `board`, `room`). */
export function frameEvent(event: string, json: string): string {
  return `event: ${event}\ndata: ${json}\n\n`;
}

/** A comment line: ignored by EventSource, it keeps proxies and idle sockets from closing the stream. */
export function frameComment(text: string): string {
  return `: ${text}\n\n`;
}

const CONNECTED = frameComment('connected');
const KEEPALIVE = frameComment('keepalive');

/** The most one write of a stream's catch-up carries (a single larger frame goes alone). */
export const CATCH_UP_MAX_BYTES = 256 * 1024;

/**
 * Writes frames in writes of at most `maxBytes`, waiting after each for the
 * socket to take it: a catch-up of big rows never builds one huge write, and
 * a client that reads slowly is sent no faster than it reads. Resolves false
 * when the stream closed meanwhile.
 */
export async function writeFrames(stream: SseStream, frames: Iterable<string>, maxBytes = CATCH_UP_MAX_BYTES): Promise<boolean> {
  let chunk = '';
  let bytes = 0;
  const flush = async () => {
    const ok = stream.write(chunk);
    chunk = '';
    bytes = 0;
    if (ok) await stream.drained();
    return ok && !stream.closed;
  };
  for (const frame of frames) {
    const n = Buffer.byteLength(frame);
    if (bytes > 0 && bytes + n > maxBytes && !(await flush())) return false;
    chunk += frame;
    bytes += n;
  }
  return bytes > 0 ? flush() : !stream.closed;
}

/** Where a stream catches up from: the rows past a cursor, as frames. */
export interface CatchUpSource<R> {
  /** The newest cursor now (the end of this catch-up). */
  newest(): number;
  /** Rows with cursor < row cursor <= upTo, ascending, at most `limit`. */
  page(cursor: number, upTo: number, limit: number): R[];
  cursorOf(row: R): number;
  frame(row: R): string;
  /** Rows per read. */
  batch: number;
}

/**
 * Catches a stream up from `cursor`, then hands it to the live fan-out:
 * one batch per turn, each written as the socket drains. Only a read that
 * finds nothing new ends the catch-up, and `follow` is called right after
 * it with no await between, so no row committed meanwhile falls between
 * the catch-up and the subscription. Returns without following when the
 * stream closed.
 */
export async function catchUpThenFollow<R>(stream: SseStream, source: CatchUpSource<R>, from: number, follow: (cursor: number) => void): Promise<void> {
  let cursor = from;
  for (;;) {
    if (stream.closed) return;
    const upTo = source.newest();
    const rows = source.page(cursor, upTo, source.batch);
    if (rows.length === 0) {
      follow(Math.max(cursor, upTo));
      return;
    }
    if (!(await writeFrames(stream, rows.map((r) => source.frame(r))))) return;
    // A short page covered everything up to upTo.
    cursor = rows.length < source.batch ? upTo : source.cursorOf(rows[rows.length - 1] as R);
    await new Promise((r) => setImmediate(r));
  }
}

/** The cursor a client asked for: `Last-Event-ID` wins over `since`; negative or non-finite becomes 0. */
export function resumeCursor(req: FastifyRequest, since: unknown): number {
  const header = req.headers['last-event-id'];
  const fromHeader = typeof header === 'string' && header.trim() !== '' ? Number(header) : NaN;
  const raw = Number.isFinite(fromHeader) ? fromHeader : Number(since);
  return Number.isFinite(raw) && raw > 0 ? Math.floor(raw) : 0;
}

export class SseRegistry {
  private readonly streams = new Set<SseStream>();
  private timer: NodeJS.Timeout | null = null;
  private readonly maxStreams: number;
  private readonly keepaliveMs: number;

  constructor(opts: { maxStreams: number; keepaliveMs?: number }) {
    this.maxStreams = opts.maxStreams;
    this.keepaliveMs = opts.keepaliveMs ?? KEEPALIVE_MS;
  }

  /**
   * Takes over the reply and opens a service-shaped SSE stream. Throws a 503
   * HttpError, the reply untouched, when `maxStreams` are already open.
   */
  open(req: FastifyRequest, reply: FastifyReply, opts: { connectedComment?: boolean } = {}): SseStream {
    if (this.streams.size >= this.maxStreams) throw new HttpError(503, tooManyStreams(this.maxStreams));
    reply.hijack();
    const res = reply.raw;
    // Headers set by hooks (CORS in development) are kept.
    const hookHeaders: Record<string, string | number | string[]> = {};
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) hookHeaders[k] = v;
    res.writeHead(200, {
      ...hookHeaders,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.socket?.setNoDelay?.(true); // inject()'s socket has no setNoDelay
    const closeCbs: Array<() => void> = [];
    let closed = false;
    const stream: SseStream = {
      write: (chunk) => {
        if (closed) return false;
        if (res.writableLength > MAX_BUFFERED_BYTES) {
          stream.close();
          return false;
        }
        res.write(chunk);
        return true;
      },
      close: () => {
        if (closed) return;
        closed = true;
        this.streams.delete(stream);
        if (this.streams.size === 0) this.stopTimer();
        for (const cb of closeCbs) cb();
        res.end();
      },
      get closed() {
        return closed;
      },
      onClose: (cb) => closeCbs.push(cb),
      drained: () =>
        closed || !res.writableNeedDrain
          ? Promise.resolve()
          : new Promise<void>((resolve) => {
              const done = () => {
                res.off('drain', done);
                res.off('close', done);
                resolve();
              };
              res.on('drain', done);
              res.on('close', done);
            }),
    };
    // The response's close, not the request's: a request that carried a body
    // (a POST that streams) emits 'close' as soon as the body has been read.
    res.once('close', () => stream.close());
    res.once('error', () => stream.close());
    this.streams.add(stream);
    this.startTimer();
    if (opts.connectedComment ?? true) res.write(CONNECTED);
    return stream;
  }

  size(): number {
    return this.streams.size;
  }

  closeAll(): void {
    for (const s of [...this.streams]) s.close();
  }

  private startTimer(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      for (const s of this.streams) s.write(KEEPALIVE);
    }, this.keepaliveMs);
    this.timer.unref();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
