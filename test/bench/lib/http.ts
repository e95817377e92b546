// Minimal loopback HTTP helpers for benchmarks (node:http, no fetch, so that
// a poll costs as little as possible on the client side).
import { request, type Agent, type IncomingHttpHeaders } from 'node:http';
import type { Proc } from './processes.ts';
import { sleep } from './stats.ts';

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body's bytes as received (e.g. still gzipped). */
  bytes: Buffer;
}

export function httpRequest(
  port: number,
  path: string,
  opts: { method?: string; body?: string; headers?: Record<string, string>; agent?: Agent | false; timeoutMs?: number } = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(opts.body));
    }
    const req = request(
      { host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers, agent: opts.agent ?? false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString('utf8'), bytes });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(opts.timeoutMs ?? 5000, () => req.destroy(new Error(`timeout: ${path}`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

export async function httpJson<T>(port: number, path: string, opts: { method?: string; body?: string } = {}): Promise<T> {
  const r = await httpRequest(port, path, opts);
  if (r.status !== 200) throw new Error(`${opts.method ?? 'GET'} ${path}: HTTP ${r.status}: ${r.body.slice(0, 300)}`);
  return JSON.parse(r.body) as T;
}

/**
 * Polls GET `path` every `everyMs` until it answers 200; resolves with the
 * performance.now() of that answer. Fails if `proc` exits or the deadline passes.
 */
export async function waitFor200(
  port: number,
  path: string,
  proc: Proc,
  opts: { everyMs?: number; timeoutMs?: number } = {},
): Promise<number> {
  const deadline = performance.now() + (opts.timeoutMs ?? 20_000);
  while (performance.now() < deadline) {
    if (proc.hasExited()) throw new Error(`process ${proc.pid} exited before answering:\n${proc.output().slice(-2000)}`);
    try {
      const r = await httpRequest(port, path, { timeoutMs: 1000 });
      if (r.status === 200) return performance.now();
    } catch {
      // Not listening yet (ECONNREFUSED) or too slow: poll again.
    }
    await sleep(opts.everyMs ?? 10);
  }
  throw new Error(`process ${proc.pid} did not answer 200 on ${path} in time:\n${proc.output().slice(-2000)}`);
}
