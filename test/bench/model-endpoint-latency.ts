// What svc's endpoint adds to one call at concurrency 1, against the bare
// node:http proxy on the same fake provider, same run. Each iteration makes
// one call per path (direct, bare proxy, svc) in an order that rotates, with
// a pause before each call as a model's tool round leaves one (so the
// previous call's settlement is not timed as this call's latency):
//   call       a non-streamed call with a small JSON answer, sent → whole
//   ttft       a streamed call, sent → chunk 0 received
//   per chunk  chunk k ≥ 1 written by the provider → received by the client
// "Added" is a path's percentile minus direct's; the targets compare svc's
// added with the bare proxy's (svc − bare at p99). svc's own
// `x-svc-overhead-ms` header is read from every svc answer.
import { Agent } from 'node:http';
import { call, type Target } from './model-endpoint-client.ts';
import { MODEL, type Paths } from './model-endpoint-setup.ts';
import { fmt, percentile, sleep } from './lib/stats.ts';

const JSON_WARMUP = 100;
const JSON_CALLS = 1000;
const STREAM_WARMUP = 20;
const STREAM_CALLS = 250;
const CHUNKS = 10;
const GAP_MS = 3;
const PAUSE_MS = 2;

export const TARGET_CALL_MS = 0.5;
export const TARGET_TTFT_MS = 1;
export const TARGET_CHUNK_MS = 0.2;

type Via = 'direct' | 'bare' | 'svc';
const VIAS: Via[] = ['direct', 'bare', 'svc'];

interface Series {
  call: number[];
  ttft: number[];
  chunk: number[];
}

export interface Percentiles {
  p50: number;
  p99: number;
}

export interface LatencyFigures {
  /** Per path and measure. */
  of: Record<Via, Record<keyof Series, Percentiles>>;
  /** svc's `x-svc-overhead-ms` on its non-streamed and streamed answers (NaN when absent), and how many answers lacked it. */
  overhead: { call: Percentiles; stream: Percentiles; missing: number; answers: number };
}

const pcts = (xs: number[]): Percentiles => ({ p50: percentile(xs, 50), p99: percentile(xs, 99) });

export async function measureLatency(paths: Paths): Promise<LatencyFigures> {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const target: Record<Via, Target> = { direct: paths.direct, bare: paths.bare, svc: paths.svc[0] as Target };
  const series: Record<Via, Series> = { direct: { call: [], ttft: [], chunk: [] }, bare: { call: [], ttft: [], chunk: [] }, svc: { call: [], ttft: [], chunk: [] } };
  const overhead = { call: [] as number[], stream: [] as number[], missing: 0, answers: 0 };
  const noteOverhead = (v: number, into: number[]) => {
    overhead.answers++;
    if (Number.isFinite(v)) into.push(v);
    else overhead.missing++;
  };
  try {
    paths.up.stamp = false;
    for (let n = 0; n < JSON_WARMUP + JSON_CALLS; n++) {
      for (let j = 0; j < VIAS.length; j++) {
        const via = VIAS[(n + j) % VIAS.length] as Via;
        await sleep(PAUSE_MS);
        const r = await call(agent, target[via], { id: `j-${via}-${n}`, chunks: 0, gapMs: 0, delayMs: 0 }, MODEL, false);
        if (n < JSON_WARMUP) continue;
        series[via].call.push(r.totalMs);
        if (via === 'svc') noteOverhead(r.overheadMs, overhead.call);
      }
    }
    paths.up.stamp = true;
    for (let n = 0; n < STREAM_WARMUP + STREAM_CALLS; n++) {
      for (let j = 0; j < VIAS.length; j++) {
        const via = VIAS[(n + j) % VIAS.length] as Via;
        const id = `s-${via}-${n}`;
        await sleep(PAUSE_MS);
        const r = await call(agent, target[via], { id, chunks: CHUNKS, gapMs: GAP_MS, delayMs: 0 }, MODEL, true);
        const stamps = paths.up.sent.get(id) ?? [];
        paths.up.sent.delete(id);
        if (r.badFrames > 0) throw new Error(`${via}: ${r.badFrames} lost or misordered frames at concurrency 1`);
        if (n < STREAM_WARMUP) continue;
        series[via].ttft.push(r.ttftMs);
        for (let k = 1; k < stamps.length; k++) series[via].chunk.push((r.arrived[k] as number) - (stamps[k] as number));
        if (via === 'svc') noteOverhead(r.overheadMs, overhead.stream);
      }
    }
  } finally {
    paths.up.stamp = false;
    agent.destroy();
  }
  const of = Object.fromEntries(VIAS.map((v) => [v, { call: pcts(series[v].call), ttft: pcts(series[v].ttft), chunk: pcts(series[v].chunk) }])) as LatencyFigures['of'];
  return { of, overhead: { call: pcts(overhead.call), stream: pcts(overhead.stream), missing: overhead.missing, answers: overhead.answers } };
}

const ms = (p: Percentiles, d: number) => `p50 ${fmt(p.p50, d)} / p99 ${fmt(p.p99, d)} ms`;
const added = (a: Percentiles, base: Percentiles, d: number) => `p50 ${fmt(a.p50 - base.p50, d)} / p99 ${fmt(a.p99 - base.p99, d)} ms`;

/** The lines printed under the benchmark, one per measure. */
export function latencyReport(f: LatencyFigures): string[] {
  const o = f.of;
  const head = (what: keyof Series, label: string, d: number) =>
    `${label}: direct ${ms(o.direct[what], d)}; bare ${ms(o.bare[what], d)}; svc ${ms(o.svc[what], d)}; added by bare ${added(o.bare[what], o.direct[what], d)}, by svc ${added(o.svc[what], o.direct[what], d)}`;
  const header = f.overhead.missing === f.overhead.answers ? 'x-svc-overhead-ms absent from every svc answer' : `x-svc-overhead-ms call ${ms(f.overhead.call, 3)}, stream ${ms(f.overhead.stream, 3)}${f.overhead.missing > 0 ? ` (absent from ${f.overhead.missing} of ${f.overhead.answers})` : ''}`;
  return [
    `${head('call', `non-streamed call (${JSON_CALLS} per path)`, 2)}; ${header}`,
    head('ttft', `time to first token (${STREAM_CALLS} streams per path, ${CHUNKS} chunks ${GAP_MS} ms apart)`, 2),
    head('chunk', 'per chunk, written → received', 3),
  ];
}

/** svc's added percentile minus the bare proxy's, per measure (ms). */
export function overBare(f: LatencyFigures, at: keyof Percentiles = 'p99'): Record<keyof Series, number> {
  const d = (w: keyof Series) => f.of.svc[w][at] - f.of.bare[w][at];
  return { call: d('call'), ttft: d('ttft'), chunk: d('chunk') };
}
