// GET /api/settings throughput against a raw node:http hello-world, 50
// connections, same run, per core: each server is pinned to CPU 1 and the
// load generator (this process) to CPU 0, so they never compete for a core
// (unpinned, the ratio mostly measured that contention). Baseline and svc
// run alternately (2 s warm-up, then 5 s measured), four rounds. The target
// is judged per core: throughput a core sustains = 1 / (server CPU time per
// request), lowest of the rounds for each server; CPU time per request is
// what the server costs, while req/s on a shared 2-core VM swings by ±20 %
// between rounds with the neighbours' load. The req/s ratio (median of the
// per-round ratios) is printed beside it. Target: svc ≥ 85 % of the baseline.
import autocannon, { type AutocannonResult } from 'autocannon';
import { freePort } from '../helpers/server.ts';
import { waitFor200 } from './lib/http.ts';
import { cpuSeconds } from './lib/proc.ts';
import { pinToCpus, spawnNode } from './lib/processes.ts';
import { RAW_HELLO } from './lib/raw-servers.ts';
import { fmt, pct, percentile } from './lib/stats.ts';
import { startSvc } from './lib/svc.ts';
import type { Benchmark, BenchResult } from './lib/types.ts';

const CONNECTIONS = 50;
const WARMUP_S = 2;
const MEASURE_S = 5;
const ROUNDS = 4;
const TARGET = 0.85;

// A second baseline: the framework alone (fastify, one JSON route, no
// logger, no hooks), so the report separates svc's own cost from fastify's.
const FASTIFY_HELLO = `
const app = require('fastify')();
app.get('/', async () => ({ hello: 'world' }));
app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
`;

interface Run {
  rps: number;
  p99: number;
  /** Server CPU per request (µs): less sensitive than req/s to a busy machine. */
  cpuUs: number;
  /** Server CPU over the run, % of one core (100 % = the server was the bottleneck). */
  cpuPct: number;
}

async function load(url: string, pid: number): Promise<Run> {
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP_S });
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  const r: AutocannonResult = await autocannon({ url, connections: CONNECTIONS, duration: MEASURE_S });
  const cpu = cpuSeconds(pid) - cpu0;
  const wall = (performance.now() - t0) / 1000;
  const bad = r.errors + r.timeouts + r.non2xx;
  if (bad > 0 || r['2xx'] === 0) {
    throw new Error(`${url}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx of ${r.requests.total}`);
  }
  return { rps: r.requests.average, p99: r.latency.p99, cpuUs: (cpu / r.requests.total) * 1e6, cpuPct: (cpu / wall) * 100 };
}

const show = (r: Run) => `${fmt(r.rps)} req/s (p99 ${r.p99} ms; server ${fmt(r.cpuUs, 1)} µs CPU/req, ${fmt(r.cpuPct)} % of a core)`;

const better = (runs: Run[]): Run => runs.reduce((a, b) => (b.rps > a.rps ? b : a));

async function run(): Promise<BenchResult> {
  const rawPort = await freePort();
  const raw = spawnNode(['-e', RAW_HELLO], { ...process.env, PORT: String(rawPort) });
  const fastifyPort = await freePort();
  const fastify = spawnNode(['-e', FASTIFY_HELLO], { ...process.env, PORT: String(fastifyPort) });
  const svc = await startSvc().catch(async (err: unknown) => {
    await raw.stop();
    await fastify.stop();
    throw err;
  });
  const pinned = pinToCpus(process.pid, '0') && pinToCpus(raw.pid, '1') && pinToCpus(fastify.pid, '1') && pinToCpus(svc.proc.pid, '1');
  console.log(pinned ? '  pinned: servers on CPU 1, load generator on CPU 0' : '  taskset unavailable: running unpinned');
  try {
    await waitFor200(rawPort, '/', raw);
    await waitFor200(fastifyPort, '/', fastify);
    const rawRuns: Run[] = [];
    const fastifyRuns: Run[] = [];
    const svcRuns: Run[] = [];
    const targets = [
      { label: 'raw node:http    ', url: `http://127.0.0.1:${rawPort}/`, pid: raw.pid, runs: rawRuns },
      { label: 'fastify hello    ', url: `http://127.0.0.1:${fastifyPort}/`, pid: fastify.pid, runs: fastifyRuns },
      { label: 'GET /api/settings', url: `http://127.0.0.1:${svc.port}/api/settings`, pid: svc.proc.pid, runs: svcRuns },
    ];
    for (let i = 1; i <= ROUNDS; i++) {
      // The order rotates every round, so no server always runs first or last.
      for (let k = 0; k < targets.length; k++) {
        const target = targets[(i + k) % targets.length] as (typeof targets)[number];
        const r = await load(target.url, target.pid);
        target.runs.push(r);
        console.log(`  round ${i}: ${target.label} ${show(r)}`);
      }
    }
    const base = better(rawRuns);
    const mine = better(svcRuns);
    const ratios = svcRuns.map((r, i) => r.rps / (rawRuns[i] as Run).rps);
    console.log(`  per-round req/s ratios: ${ratios.map((r) => pct(r)).join(', ')}`);
    const rpsRatio = percentile(ratios, 50);
    const rawUs = Math.min(...rawRuns.map((r) => r.cpuUs));
    const svcUs = Math.min(...svcRuns.map((r) => r.cpuUs));
    const fastifyUs = Math.min(...fastifyRuns.map((r) => r.cpuUs));
    const ratio = rawUs / svcUs;
    const pass = ratio >= TARGET;
    console.log(`  best: raw ${fmt(base.rps)} req/s, svc ${fmt(mine.rps)} req/s; median per-round req/s ratio ${pct(rpsRatio)}`);
    console.log(`  per core: raw ${fmt(1e6 / rawUs)} req/s (${fmt(rawUs, 1)} µs CPU/req), svc ${fmt(1e6 / svcUs)} req/s (${fmt(svcUs, 1)} µs CPU/req)`);
    console.log(`  framework alone: fastify hello ${fmt(1e6 / fastifyUs)} req/s per core (${fmt(fastifyUs, 1)} µs), ${pct(rawUs / fastifyUs)} of raw; svc = ${pct(fastifyUs / svcUs)} of fastify hello`);
    console.log(`  ${pass ? 'PASS' : 'FAIL'}: GET /api/settings at ${pct(ratio)} of raw node:http per core (target ≥ ${pct(TARGET, 0)})`);
    return {
      name: 'settings-throughput',
      figures: `per core: svc ${fmt(1e6 / svcUs)} req/s (${fmt(svcUs, 1)} µs/req), raw ${fmt(1e6 / rawUs)} req/s (${fmt(rawUs, 1)} µs/req); best measured req/s svc ${fmt(mine.rps)}, raw ${fmt(base.rps)}`,
      ratio: `${pct(ratio)} of raw per core (fastify hello ${pct(rawUs / fastifyUs)}; svc ${pct(fastifyUs / svcUs)} of fastify hello; req/s median ratio ${pct(rpsRatio)}; ${ROUNDS} rounds${pinned ? ', pinned' : ''})`,
      target: `≥ ${pct(TARGET, 0)} of raw per core`,
      pass,
    };
  } finally {
    if (pinned) pinToCpus(process.pid, '0-1');
    await raw.stop();
    await fastify.stop();
    await svc.stop();
  }
}

export const settingsThroughput: Benchmark = { name: 'settings-throughput', run };
