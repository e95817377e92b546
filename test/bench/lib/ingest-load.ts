// svc's own appends for the fan-out benchmark: POST /api/obs/ingest with one
// event per request at a steady rate, each carrying data.sentAt (the time the
// request was built), over a small keep-alive pool.
import { Agent } from 'node:http';
import { httpRequest } from './http.ts';

export interface IngestLoad {
  ok: number;
  failed: number;
  /** Round-trip time of each successful POST (ms). */
  postMs: number[];
}

export function ingestAtRate(port: number, perSecond: number, ms: number): Promise<IngestLoad> {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const total = Math.round((perSecond * ms) / 1000);
  const result: IngestLoad = { ok: 0, failed: 0, postMs: [] };
  const inflight: Array<Promise<void>> = [];
  const post = async () => {
    const t0 = performance.now();
    const body = JSON.stringify({ events: [{ kind: 'tool_call', agentId: 'bench-ingest', data: { sentAt: Date.now() } }] });
    try {
      const r = await httpRequest(port, '/api/obs/ingest', { method: 'POST', body, agent });
      const count = r.status === 200 ? (JSON.parse(r.body) as { count?: number }).count : 0;
      if (count === 1) {
        result.ok++;
        result.postMs.push(performance.now() - t0);
      } else {
        result.failed++;
      }
    } catch {
      // Counted: a failed request is part of the figures, not a crash.
      result.failed++;
    }
  };
  return new Promise((resolve) => {
    let sent = 0;
    const t0 = performance.now();
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - t0) * perSecond) / 1000));
      while (sent < due) {
        sent++;
        inflight.push(post());
      }
      if (sent >= total) {
        clearInterval(timer);
        void Promise.all(inflight).then(() => {
          agent.destroy();
          resolve(result);
        });
      }
    }, 5);
  });
}
