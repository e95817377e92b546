// Server-Sent Events: headers, the `: connected` comment, framing and the
// 20 s keepalive, in one place. One interval serves every open stream. A
// client that stops reading is dropped once its unsent buffer passes a
// bound, so one stuck tab cannot grow the server's memory.
import type { FastifyReply, FastifyRequest } from 'fastify';

export const KEEPALIVE_MS = 20_000;
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export interface SseStream {
  /** Writes raw, already-framed text. Returns false when the stream is closed. */
  write(chunk: string | Buffer): boolean;
  close(): void;
  readonly closed: boolean;
  onClose(cb: () => void): void;
}

export function frameRow(id: number, json: string): string {
  return `id: ${id}\ndata: ${json}\n\n`;
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

  constructor(private readonly keepaliveMs = KEEPALIVE_MS) {}

  /** Takes over the reply and opens a service-shaped SSE stream. */
  open(req: FastifyRequest, reply: FastifyReply, opts: { connectedComment?: boolean } = {}): SseStream {
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
    };
    // The response's close, not the request's: a request that carried a body
    // (a POST that streams) emits 'close' as soon as the body has been read.
    res.once('close', () => stream.close());
    res.once('error', () => stream.close());
    this.streams.add(stream);
    this.startTimer();
    if (opts.connectedComment ?? true) res.write(': connected\n\n');
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
      for (const s of this.streams) s.write(': keepalive\n\n');
    }, this.keepaliveMs);
    this.timer.unref();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
