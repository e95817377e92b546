// A lean SSE client for the fan-out benchmark: counts `id:` frames, keeps
// the highest id and the duplicates, and (for sampled clients) parses each
// frame's data to record the delivery latency: time the chunk arrived minus
// the `sentAt` the writer put in the event's data.
import { request, type Agent, type ClientRequest } from 'node:http';
import { SseFrameSplitter } from './sse-frames.ts';

export interface SseCounts {
  /** Distinct ids received (an id at or below the highest seen counts as a duplicate instead). */
  count: number;
  maxId: number;
  dups: number;
  closed: boolean;
}

export class SseCounter implements SseCounts {
  count = 0;
  maxId = 0;
  dups = 0;
  closed = false;
  private latencies: number[] = [];
  private readonly frames = new SseFrameSplitter((text, at) => this.frame(text, at), () => Date.now());
  private req: ClientRequest | null = null;
  private onConnected: (() => void) | null = null;

  constructor(private readonly sample: boolean) {}

  /** Opens the stream; resolves once the `: connected` comment has arrived. */
  open(port: number, since: number, agent: Agent, timeoutMs = 15_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error('SSE connect timeout')), timeoutMs);
      const fail = (err: Error) => {
        clearTimeout(timer);
        this.onConnected = null;
        this.req?.destroy();
        reject(err);
      };
      this.onConnected = () => {
        clearTimeout(timer);
        this.onConnected = null;
        resolve();
      };
      const req = request(
        { host: '127.0.0.1', port, path: `/api/obs/stream?since=${since}`, agent, headers: { accept: 'text/event-stream' } },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            fail(new Error(`SSE HTTP ${res.statusCode}`));
            return;
          }
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => this.frames.push(chunk));
          res.on('close', () => (this.closed = true));
        },
      );
      req.on('error', (err) => {
        this.closed = true;
        if (this.onConnected) fail(err);
      });
      req.end();
      this.req = req;
    });
  }

  /** The latencies recorded since the last call (ms). */
  takeLatencies(): number[] {
    const out = this.latencies;
    this.latencies = [];
    return out;
  }

  close(): void {
    this.req?.destroy();
  }

  private frame(text: string, at: number): void {
    if (text.startsWith(':')) {
      if (text === ': connected') this.onConnected?.();
      return;
    }
    if (!text.startsWith('id: ')) return;
    const nl = text.indexOf('\n');
    const id = Number(nl < 0 ? text.slice(4) : text.slice(4, nl));
    if (id <= this.maxId) {
      this.dups++;
      return;
    }
    this.maxId = id;
    this.count++;
    if (!this.sample || nl < 0) return;
    const line = text.slice(nl + 1);
    if (!line.startsWith('data: ')) return;
    const row = JSON.parse(line.slice(6)) as { data?: unknown };
    const data = typeof row.data === 'string' ? (JSON.parse(row.data) as { sentAt?: unknown }) : {};
    if (typeof data.sentAt === 'number') this.latencies.push(at - data.sentAt);
  }
}

/** Opens `n` clients, `concurrency` connection attempts at a time. */
export async function openClients(
  n: number,
  opts: { port: number; since: number; agent: Agent; sample: boolean; concurrency?: number },
): Promise<SseCounter[]> {
  const clients: SseCounter[] = [];
  const batch = opts.concurrency ?? 50;
  for (let i = 0; i < n; i += batch) {
    const group = Array.from({ length: Math.min(batch, n - i) }, () => new SseCounter(opts.sample));
    clients.push(...group);
    try {
      await Promise.all(group.map((c) => c.open(opts.port, opts.since, opts.agent)));
    } catch (err) {
      for (const c of clients) c.close();
      throw err;
    }
  }
  return clients;
}
