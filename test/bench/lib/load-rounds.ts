// Rounds of load against several servers, driven by lib/lean-load.ts: every
// target once per round, the order rotating so that none always runs first
// or last; each run a warm-up, then a measured stretch with the server's CPU
// time read around it; every answer checked.
import { leanLoad } from './lean-load.ts';
import { cpuSeconds } from './proc.ts';
import { fmt, median } from './stats.ts';

export interface Run {
  rps: number;
  p99: number;
  /** Server CPU per request (µs). */
  cpuUs: number;
  /** Server CPU over the run, % of one core (100 % = the server was the bottleneck). */
  cpuPct: number;
  /** Response bytes per second the load generator read (MB/s). */
  mbps: number;
}

export interface Target {
  label: string;
  url: string;
  pid: number;
  runs: Run[];
  headers?: Record<string, string>;
  /** The revalidating client: every answer must be a 304. */
  expect304?: boolean;
}

export interface LoadShape {
  connections: number;
  warmupS: number;
  measureS: number;
}

async function load(t: Target, shape: LoadShape): Promise<Run> {
  const opts = { url: t.url, connections: shape.connections, headers: t.headers };
  await leanLoad({ ...opts, durationS: shape.warmupS });
  const cpu0 = cpuSeconds(t.pid);
  const r = await leanLoad({ ...opts, durationS: shape.measureS });
  const cpu = cpuSeconds(t.pid) - cpu0;
  const expected = t.expect304 ? 304 : 200;
  const good = r.statuses[expected] ?? 0;
  const wrong = r.total - good;
  if (r.errors + wrong > 0 || good === 0) {
    throw new Error(`${t.label.trim()}: ${r.errors} errors, ${wrong} answers other than ${expected} of ${r.total} (${JSON.stringify(r.statuses)})`);
  }
  return {
    rps: r.rps,
    p99: Math.round(r.p99 * 10) / 10,
    cpuUs: (cpu / r.total) * 1e6,
    cpuPct: (cpu / r.seconds) * 100,
    mbps: r.bodyBytes / r.seconds / 1e6,
  };
}

const show = (r: Run) =>
  `${fmt(r.rps)} req/s (p99 ${r.p99} ms; ${fmt(r.mbps, 1)} MB/s; server ${fmt(r.cpuUs, 1)} µs CPU/req, ${fmt(r.cpuPct)} % of a core)`;

export async function rounds(targets: Target[], count: number, shape: LoadShape): Promise<void> {
  for (let i = 1; i <= count; i++) {
    for (let k = 0; k < targets.length; k++) {
      const t = targets[(i + k) % targets.length] as Target;
      const r = await load(t, shape);
      t.runs.push(r);
      console.log(`  round ${i}: ${t.label} ${show(r)}`);
    }
  }
}

export const medianOf = (runs: Run[], f: (r: Run) => number) => median(runs.map(f));
/** Per-round req/s ratios of `mine` to `base`. */
export const ratios = (mine: Run[], base: Run[]) => mine.map((r, i) => r.rps / (base[i] as Run).rps);
/** The lowest server CPU per request over the rounds (µs): what a core sustains, the least disturbed. */
export const lowestCpuUs = (t: Target) => Math.min(...t.runs.map((x) => x.cpuUs));
