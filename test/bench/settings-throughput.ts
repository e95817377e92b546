// GET /api/settings throughput against a raw node:http hello-world, 50
// connections, same run. Baseline and svc run alternately twice (2 s warm-up,
// then 10 s measured) and the better run of each counts, to damp the noise
// of a shared 2-core machine. Target: svc ≥ 85 % of the baseline.
import autocannon, { type AutocannonResult } from 'autocannon';
import { freePort } from '../helpers/server.ts';
import { waitFor200 } from './lib/http.ts';
import { cpuSeconds } from './lib/proc.ts';
import { spawnNode } from './lib/processes.ts';
import { fmt, pct } from './lib/stats.ts';
import { startSvc } from './lib/svc.ts';
import type { Benchmark, BenchResult } from './lib/types.ts';

const CONNECTIONS = 50;
const WARMUP_S = 2;
const MEASURE_S = 10;
const ROUNDS = 2;
const TARGET = 0.85;

// Same headers as a fastify JSON reply, so only the framework's work differs.
const RAW_HELLO = `
const http = require('node:http');
const body = JSON.stringify({ hello: 'world' });
http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
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
  const svc = await startSvc().catch(async (err: unknown) => {
    await raw.stop();
    throw err;
  });
  try {
    await waitFor200(rawPort, '/', raw);
    const rawRuns: Run[] = [];
    const svcRuns: Run[] = [];
    for (let i = 1; i <= ROUNDS; i++) {
      const b = await load(`http://127.0.0.1:${rawPort}/`, raw.pid);
      rawRuns.push(b);
      console.log(`  round ${i}: raw node:http     ${show(b)}`);
      const s = await load(`http://127.0.0.1:${svc.port}/api/settings`, svc.proc.pid);
      svcRuns.push(s);
      console.log(`  round ${i}: GET /api/settings ${show(s)}`);
    }
    const base = better(rawRuns);
    const mine = better(svcRuns);
    const ratio = mine.rps / base.rps;
    const cpuRatio = Math.min(...rawRuns.map((r) => r.cpuUs)) / Math.min(...svcRuns.map((r) => r.cpuUs));
    const pass = ratio >= TARGET;
    console.log(`  best: raw ${fmt(base.rps)} req/s, svc ${fmt(mine.rps)} req/s, ratio ${pct(ratio)}`);
    console.log(`  CPU per request (lowest of each): raw/svc = ${pct(cpuRatio)} (what svc would reach if the server alone were the bottleneck)`);
    console.log(`  ${pass ? 'PASS' : 'FAIL'}: GET /api/settings at ${pct(ratio)} of raw node:http (target ≥ ${pct(TARGET, 0)})`);
    return {
      name: 'settings-throughput',
      figures: `svc ${fmt(mine.rps)} req/s, ${fmt(mine.cpuUs, 1)} µs/req; raw ${fmt(base.rps)} req/s, ${fmt(base.cpuUs, 1)} µs/req`,
      ratio: `${pct(ratio)} of raw (CPU/req ${pct(cpuRatio)})`,
      target: `≥ ${pct(TARGET, 0)} of raw`,
      pass,
    };
  } finally {
    await raw.stop();
    await svc.stop();
  }
}

export const settingsThroughput: Benchmark = { name: 'settings-throughput', run };
