// The live fan-out for one table (event log or chat messages). Rows arrive
// two ways: from the tail worker (every tick; rows of any process) and at
// commit time from svc's own writes. The hub delivers each row once, in
// cursor order: a committed row that directly follows the watermark goes out
// at once; one that leaves a gap (another process wrote in between) waits
// for the tail, which is poked to read now. Each row is framed once and the
// frames for one subscriber are written in one call per flush.
//
// Flushes of committed rows are throttled to one per FLUSH_INTERVAL_MS, on
// the leading edge: a lone event goes out on the next turn of the loop, a
// burst is coalesced. Every flush costs one socket write per subscriber, so
// at 100 events/s to 1,000 streams this turns 100,000 writes/s into at most
// 1000/FLUSH_INTERVAL_MS × 1,000, for at most FLUSH_INTERVAL_MS more latency.
//
// In-process listeners (the OTLP export) see the same delivered rows, once
// each and in cursor order, whether or not any stream is subscribed.
import { WATERMARK } from '../../shared/channels/tail.ts';
import { messageOf } from '../../shared/errors.ts';

export interface Subscriber<R> {
  /** Rows at or below this cursor were already sent (catch-up). */
  cursor: number;
  matches(row: R): boolean;
  write(chunk: string | Buffer): boolean;
}

export const FLUSH_INTERVAL_MS = 25;

/** Sees every delivered batch; must be cheap and must not block (queue work for later). */
export type RowListener<R> = (rows: readonly R[]) => void;

export interface StreamHubOptions<R> {
  table: keyof typeof WATERMARK;
  cursorOf: (row: R) => number;
  frame: (row: R) => string;
  watermarks: Float64Array;
  /** Asks the tail worker to poll now (called when a commit leaves a gap). */
  poke: () => void;
}

export class StreamHub<R> {
  private readonly subs = new Set<Subscriber<R>>();
  private readonly listeners = new Set<{ fn: RowListener<R>; onError: (err: unknown) => void }>();
  private pendingCommitted: R[] = [];
  private flushScheduled = false;
  private lastFlush = 0;
  private readonly index: number;

  constructor(private readonly opts: StreamHubOptions<R>) {
    this.index = WATERMARK[opts.table];
  }

  get watermark(): number {
    return this.opts.watermarks[this.index] ?? 0;
  }

  private set watermark(v: number) {
    this.opts.watermarks[this.index] = v;
  }

  /** Sets the starting point (boot): rows at or below are never live-delivered. */
  reset(cursor: number): void {
    this.watermark = cursor;
  }

  subscribe(sub: Subscriber<R>): () => void {
    this.subs.add(sub);
    return () => this.subs.delete(sub);
  }

  /**
   * Calls `fn` with every batch of rows delivered from now on. A throwing
   * listener never stops delivery to streams or to other listeners: its error
   * goes to `onError` (default: a process warning).
   */
  listen(fn: RowListener<R>, onError: (err: unknown) => void = reportListenerError): () => void {
    const entry = { fn, onError };
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  subscriberCount(): number {
    return this.subs.size;
  }

  /** Rows svc itself just committed; delivered on the next turn of the event loop, or at most FLUSH_INTERVAL_MS later. */
  offerCommitted(rows: readonly R[]): void {
    this.pendingCommitted.push(...rows);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const wait = this.lastFlush + FLUSH_INTERVAL_MS - performance.now();
    if (wait > 0) setTimeout(() => this.flushCommitted(), wait);
    else setImmediate(() => this.flushCommitted());
  }

  private flushCommitted(): void {
    this.flushScheduled = false;
    this.lastFlush = performance.now();
    const batch = this.pendingCommitted.sort((a, b) => this.opts.cursorOf(a) - this.opts.cursorOf(b));
    this.pendingCommitted = [];
    const out: R[] = [];
    let gap = false;
    for (const row of batch) {
      const c = this.opts.cursorOf(row);
      if (c <= this.watermark) continue;
      if (c !== this.watermark + 1) {
        gap = true;
        break;
      }
      out.push(row);
      this.watermark = c;
    }
    this.deliver(out);
    if (gap) this.opts.poke();
  }

  /** Rows read by the tail worker, ascending. The tail is authoritative: gaps are real. */
  offerTailed(rows: readonly R[]): void {
    const out: R[] = [];
    for (const row of rows) {
      const c = this.opts.cursorOf(row);
      if (c <= this.watermark) continue;
      out.push(row);
      this.watermark = c;
    }
    this.deliver(out);
  }

  private deliver(rows: readonly R[]): void {
    if (rows.length === 0) return;
    for (const l of this.listeners) {
      try {
        l.fn(rows);
      } catch (err) {
        l.onError(err);
      }
    }
    if (this.subs.size === 0) return;
    const frames = rows.map((r) => this.opts.frame(r));
    const cursors = rows.map((r) => this.opts.cursorOf(r));
    const last = cursors[cursors.length - 1] as number;
    // Most streams take every row: they share one encoded buffer.
    let all: Buffer | null = null;
    for (const sub of this.subs) {
      let text = '';
      let everything = true;
      for (let i = 0; i < rows.length; i++) {
        if ((cursors[i] as number) > sub.cursor && sub.matches(rows[i] as R)) text += frames[i];
        else everything = false;
      }
      if (everything) sub.write((all ??= Buffer.from(frames.join(''))));
      else if (text !== '') sub.write(text);
      if (last > sub.cursor) sub.cursor = last;
    }
  }
}

function reportListenerError(err: unknown): void {
  process.emitWarning(`stream hub listener failed: ${messageOf(err)}`);
}
