// Boot to ready: time from spawning `node dist/supervisor/main.js` with a
// fresh SVC_HOME to its first 200 on GET /api/settings, polled every 10 ms.
// Baseline: the same measurement for a one-line node:http server. One
// untimed warm-up run of each (page cache), then 5 alternating runs of each.
// Target: median < 1.5 s.
import { freePort, removeHome, tempHome } from '../helpers/server.ts';
import { waitFor200 } from './lib/http.ts';
import { SERVER_NODE_FLAGS } from '../../shared/launcher/node-flags.ts';
import { spawnNode, type Proc } from './lib/processes.ts';
import { fmt, median } from './lib/stats.ts';
import { DIST_ENTRY, svcEnv } from './lib/svc.ts';
import type { Benchmark, BenchResult } from './lib/types.ts';

const RUNS = 5;
const POLL_MS = 10;
const TARGET_MS = 1500;

const RAW_OK = `require('http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1')`;

async function timeToReady(start: (port: number) => Proc, port: number, path: string): Promise<number> {
  const t0 = performance.now();
  const proc = start(port);
  try {
    const t1 = await waitFor200(port, path, proc, { everyMs: POLL_MS, timeoutMs: 30_000 });
    return t1 - t0;
  } finally {
    await proc.stop();
  }
}

async function bootSvc(): Promise<number> {
  const home = tempHome('svc-bench-boot-');
  try {
    const port = await freePort();
    return await timeToReady((p) => spawnNode([...SERVER_NODE_FLAGS, DIST_ENTRY], svcEnv(home, p)), port, '/api/settings');
  } finally {
    removeHome(home);
  }
}

async function bootRaw(): Promise<number> {
  const port = await freePort();
  return timeToReady((p) => spawnNode(['-e', RAW_OK], { ...process.env, PORT: String(p) }), port, '/');
}

async function run(): Promise<BenchResult> {
  await bootRaw();
  await bootSvc();
  const raw: number[] = [];
  const svc: number[] = [];
  for (let i = 1; i <= RUNS; i++) {
    raw.push(await bootRaw());
    svc.push(await bootSvc());
    console.log(`  run ${i}: raw node:http ${fmt(raw[i - 1] as number)} ms, svc ${fmt(svc[i - 1] as number)} ms`);
  }
  const svcMed = median(svc);
  const rawMed = median(raw);
  const svcMax = Math.max(...svc);
  const rawMax = Math.max(...raw);
  const ratio = svcMed / rawMed;
  const pass = svcMed < TARGET_MS;
  console.log(`  svc: median ${fmt(svcMed)} ms, max ${fmt(svcMax)} ms; raw: median ${fmt(rawMed)} ms, max ${fmt(rawMax)} ms; ratio ${fmt(ratio, 2)}×`);
  console.log(
    `  ${pass ? 'PASS' : 'FAIL'}: boot to ready median ${fmt(svcMed)} ms (max ${fmt(svcMax)} ms), target < ${fmt(TARGET_MS)} ms` +
      (svcMax >= TARGET_MS ? ' (the max is over the target)' : ''),
  );
  return {
    name: 'boot',
    figures: `svc median ${fmt(svcMed)} ms (max ${fmt(svcMax)}); raw median ${fmt(rawMed)} ms (max ${fmt(rawMax)})`,
    ratio: `${fmt(ratio, 2)}× raw`,
    target: `median < ${fmt(TARGET_MS)} ms`,
    pass,
  };
}

export const boot: Benchmark = { name: 'boot', run };
