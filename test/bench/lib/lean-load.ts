// A lean HTTP/1.1 load generator for responses with large bodies. autocannon
// turns every body chunk into a JS string (`req.body += data`), so for a
// 36 KB answer the load generator, not the server, sets the pace (and a
// gzipped body, decoded as UTF-8, costs it even more than the plain one).
// This one parses the status line and Content-Length and counts the body's
// bytes without looking at them: one keep-alive connection per slot, one
// request in flight per connection (no pipelining), latency per request.
// Bodies must carry Content-Length (chunked answers count as errors).
import { connect, type Socket } from 'node:net';

export interface LeanLoadOptions {
  url: string;
  connections: number;
  durationS: number;
  headers?: Record<string, string>;
}

export interface LeanLoadResult {
  total: number;
  /** Requests per second over the run. */
  rps: number;
  /** Latency percentiles (ms). */
  p50: number;
  p99: number;
  /** Answers by status code. */
  statuses: Record<number, number>;
  errors: number;
  /** Body bytes received. */
  bodyBytes: number;
  seconds: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const RECEIVE_BUFFER = 64 * 1024;

export function leanLoad(opts: LeanLoadOptions): Promise<LeanLoadResult> {
  const u = new URL(opts.url);
  const port = Number(u.port);
  const extra = Object.entries(opts.headers ?? {})
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const request = Buffer.from(`GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\n${extra}\r\n`, 'latin1');
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let errors = 0;
  let bodyBytes = 0;
  const started = performance.now();
  const deadline = started + opts.durationS * 1000;

  const runConnection = () =>
    new Promise<void>((resolve) => {
      // One receive buffer per connection, reused for every read (`onread`):
      // a Buffer per chunk is memory V8 counts as external, and at ~200 KB
      // per answer it had this process run a full mark-compact every quarter
      // second, whose pauses were measured as the server's latency.
      const received = Buffer.allocUnsafe(RECEIVE_BUFFER);
      const sock: Socket = connect({
        port,
        host: u.hostname,
        onread: {
          buffer: received,
          callback: (n) => {
            onChunk(received.subarray(0, n));
            return true;
          },
        },
      });
      sock.setNoDelay(true);
      let head: Buffer | null = null;
      let remaining = 0;
      let status = 0;
      let sentAt = 0;
      let inFlight = false;
      const fail = () => {
        errors++;
        sock.destroy();
      };
      const send = () => {
        inFlight = true;
        sentAt = performance.now();
        sock.write(request);
      };
      const complete = () => {
        const now = performance.now();
        latencies.push(now - sentAt);
        statuses[status] = (statuses[status] ?? 0) + 1;
        inFlight = false;
        if (now < deadline) send();
        else sock.end();
      };
      sock.on('connect', send);
      // `chunk` is a view of the reused receive buffer: whatever outlives this call is copied.
      const onChunk = (chunk: Buffer) => {
        let off = 0;
        while (off < chunk.length) {
          if (!inFlight) return fail(); // bytes nobody asked for
          if (remaining > 0) {
            const take = Math.min(remaining, chunk.length - off);
            remaining -= take;
            off += take;
            bodyBytes += take;
            if (remaining === 0) complete();
            continue;
          }
          const before = head ? head.length : 0;
          head = head ? Buffer.concat([head, chunk.subarray(off)]) : chunk.subarray(off);
          const end = head.indexOf(HEAD_END);
          if (end < 0) {
            if (head.length > 64 * 1024) return fail();
            head = Buffer.from(head); // keep a copy, not a view of a chunk
            return;
          }
          const text = head.toString('latin1', 0, end);
          head = null;
          off += end + HEAD_END.length - before;
          status = Number(text.slice(9, 12));
          const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(text);
          if (!length) {
            if (status === 304 || status === 204) {
              complete();
              continue;
            }
            return fail(); // chunked or unframed: not supported here
          }
          remaining = Number(length[1]);
          if (remaining === 0) complete();
        }
      };
      sock.on('error', () => {
        errors++;
      });
      sock.on('close', () => {
        if (inFlight) errors++;
        resolve();
      });
    });

  return Promise.all(Array.from({ length: opts.connections }, runConnection)).then(() => {
    const seconds = (performance.now() - started) / 1000;
    const sorted = Float64Array.from(latencies).sort();
    const at = (q: number) => (sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number) : 0);
    return { total: latencies.length, rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), statuses, errors, bodyBytes, seconds };
  });
}
