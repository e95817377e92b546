// Sustained non-streamed calls per second against a provider that answers
// in DELAY_MS (a small JSON answer with usage), IN_FLIGHT calls at a time,
// through the bare proxy and through svc (spread over its agents, each call
// reserved under the cap budget, settled, recorded and costed). Rounds
// alternate the order; each a warm-up then a measured stretch with the
// proxy's CPU read around it. The provider alone caps the rate at
// IN_FLIGHT / DELAY_MS (3,200 a second); the bench process's own CPU (client
// and provider, pinned to CPU 0) is printed, since when it saturates it, not
// the proxy, sets the pace. A call answered other than 200 is counted
// (warm-up included) and reported, not thrown.
import { Agent } from 'node:http';
import { call, type Target } from './model-endpoint-client.ts';
import { MODEL, type Paths } from './model-endpoint-setup.ts';
import { cpuSeconds } from './lib/proc.ts';
import { fmt, median, percentile } from './lib/stats.ts';

export const IN_FLIGHT = 64;
export const DELAY_MS = 20;
const WARMUP_S = 1;
const MEASURE_S = 4;
export const ROUNDS = 3;

export interface ThroughputRun {
  cps: number;
  p50: number;
  p99: number;
  /** The proxy's CPU, % of one core. */
  proxyCpu: number;
  /** The proxy's CPU time per call (µs): what a core sustains, less moved by the machine's other load than calls/s. */
  cpuUs: number;
  /** This process's CPU (client and provider), % of one core. */
  benchCpu: number;
  /** Calls answered other than 200 with the JSON answer (counted, not thrown: the figure is for the report). */
  failed: number;
  firstError: string | null;
}

interface Load {
  calls: number;
  latencies: number[];
  seconds: number;
  failed: number;
  firstError: string | null;
}

async function load(targets: Target[], seconds: number, tag: string): Promise<Load> {
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const latencies: number[] = [];
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  let n = 0;
  let failed = 0;
  let firstError: string | null = null;
  const worker = async (w: number) => {
    const to = targets[w % targets.length] as Target;
    while (performance.now() < deadline) {
      try {
        const r = await call(agent, to, { id: `${tag}-${w}-${n++}`, chunks: 0, gapMs: 0, delayMs: DELAY_MS }, MODEL, false);
        latencies.push(r.totalMs);
      } catch (err) {
        failed++;
        firstError ??= err instanceof Error ? err.message : String(err);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: IN_FLIGHT }, (_, w) => worker(w)));
  } finally {
    agent.destroy();
  }
  return { calls: latencies.length, latencies, seconds: (performance.now() - t0) / 1000, failed, firstError };
}

async function once(targets: Target[], pid: number, tag: string): Promise<ThroughputRun> {
  const warm = await load(targets, WARMUP_S, `${tag}-w`);
  const cpu0 = cpuSeconds(pid);
  const own0 = process.cpuUsage();
  const r = await load(targets, MEASURE_S, tag);
  const cpu = cpuSeconds(pid) - cpu0;
  const own = process.cpuUsage(own0);
  return {
    cps: r.calls / r.seconds,
    p50: percentile(r.latencies, 50),
    p99: percentile(r.latencies, 99),
    proxyCpu: (cpu / r.seconds) * 100,
    cpuUs: (cpu / r.calls) * 1e6,
    benchCpu: ((own.user + own.system) / 1e6 / r.seconds) * 100,
    failed: warm.failed + r.failed,
    firstError: warm.firstError ?? r.firstError,
  };
}

export interface ThroughputFigures {
  bare: ThroughputRun[];
  svc: ThroughputRun[];
  /** Median of the per-round svc / bare ratios. */
  ratio: number;
  /** Per core: the bare proxy's least CPU per call over svc's. */
  perCore: number;
}

export async function measureThroughput(paths: Paths): Promise<ThroughputFigures> {
  paths.up.stamp = false;
  const bare: ThroughputRun[] = [];
  const svc: ThroughputRun[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? (['bare', 'svc'] as const) : (['svc', 'bare'] as const);
    for (const via of order) {
      const r = via === 'bare' ? await once([paths.bare], paths.bareProc.pid, `t-b${round}`) : await once(paths.svc, paths.svcProc.proc.pid, `t-s${round}`);
      (via === 'bare' ? bare : svc).push(r);
      console.log(`  throughput round ${round}: ${via === 'bare' ? 'bare proxy' : 'svc       '} ${show(r)}`);
    }
  }
  const least = (runs: ThroughputRun[]) => Math.min(...runs.map((r) => r.cpuUs));
  return { bare, svc, ratio: median(svc.map((s, i) => s.cps / (bare[i] as ThroughputRun).cps)), perCore: least(bare) / least(svc) };
}

const show = (r: ThroughputRun) =>
  `${r.failed > 0 ? `${r.failed} calls FAILED (first: ${r.firstError}); ` : ''}${fmt(r.cps)} calls/s (p50 ${fmt(r.p50, 1)} / p99 ${fmt(r.p99, 1)} ms; proxy CPU ${fmt(r.proxyCpu)} % of a core, ${fmt(r.cpuUs)} µs a call, bench process ${fmt(r.benchCpu)} %)`;

export function throughputReport(f: ThroughputFigures): string {
  const mid = (runs: ThroughputRun[], pick: (r: ThroughputRun) => number) => median(runs.map(pick));
  const side = (label: string, runs: ThroughputRun[]) =>
    `${label} ${fmt(mid(runs, (r) => r.cps))} calls/s (p99 ${fmt(mid(runs, (r) => r.p99), 1)} ms, CPU ${fmt(mid(runs, (r) => r.proxyCpu))} %, ${fmt(Math.min(...runs.map((r) => r.cpuUs)))} µs a call at least)`;
  return `${IN_FLIGHT} in flight on a ${DELAY_MS} ms provider, median of ${ROUNDS} rounds: ${side('svc', f.svc)}, ${side('bare', f.bare)}`;
}
