// 1,000 concurrent GET /api/obs/stream clients.
// Phase 1: another process (fixtures/event-writer.ts, the project's
// createEventLog on the same svc.db) appends 100 events/s for 30 s; the tail
// worker must carry every row to every client with one query per table per
// tick. Phase 2: svc's own appends (POST /api/obs/ingest, 100/s) while the
// same clients listen; these go out at commit time.
// Targets: all delivered; queries per tick per table = 1; server CPU < 10 %
// of one core; ≤ 20 KB RSS per stream; external p99 ≤ 1 s; own p99 < 100 ms.
// Baselines: the 750 ms tick bounds the external delay; the own-append p99
// is compared with the external p99.
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { httpJson } from './lib/http.ts';
import { ingestAtRate } from './lib/ingest-load.ts';
import { cpuSeconds, measure, settledRssKb } from './lib/proc.ts';
import { spawnNode, type Proc } from './lib/processes.ts';
import { openFleet, type Fleet, type FleetSnapshot } from './lib/sse-fleet.ts';
import { fmt, max, median, pct, percentile, sleep } from './lib/stats.ts';
import { startSvc } from './lib/svc.ts';
import type { Benchmark, BenchResult } from './lib/types.ts';

const CLIENTS = 1000;
const SAMPLED = 50;
const RATE = 100;
const EXTERNAL_MS = 30_000;
const OWN_MS = 20_000;
const TICK_MS = 750;
const TABLES = 2; // events and chat_messages
const TARGET = { cpuPercent: 10, kbPerStream: 20, externalP99: 1000, ownP99: 100 };

const WRITER = fileURLToPath(new URL('./fixtures/event-writer.ts', import.meta.url));

interface TailStats {
  ticks: number;
  queries: number;
}

function maxSeq(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT COALESCE(MAX(seq), 0) FROM events').pluck().get() as number;
  } finally {
    db.close();
  }
}

async function tailStats(port: number, fresh: boolean): Promise<TailStats> {
  type Health = { workers?: Array<{ name: string; state?: string; lastError?: string | null; stats?: TailStats }> };
  const h = fresh
    ? await httpJson<Health>(port, '/api/health/recheck', { method: 'POST' })
    : await httpJson<Health>(port, '/api/health');
  const tail = h.workers?.find((w) => w.name === 'tail');
  if (!tail?.stats) throw new Error(`/api/health has no tail worker stats (tail: ${JSON.stringify(tail ?? null)})`);
  return tail.stats;
}

function openFileLimit(pid: number): string {
  const m = /^Max open files\s+(\S+)\s+(\S+)/m.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'));
  return m ? `${m[1]} (hard ${m[2]})` : 'unknown';
}

async function waitForLine(proc: Proc, type: string, timeoutMs: number): Promise<Record<string, unknown>> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    for (const line of proc.output().split('\n')) {
      if (!line.startsWith('{')) continue;
      const msg = JSON.parse(line) as Record<string, unknown>;
      if (msg.type === type) return msg;
    }
    if (proc.hasExited()) throw new Error(`writer exited without '${type}':\n${proc.output().slice(-2000)}`);
    if (performance.now() > deadline) throw new Error(`writer: no '${type}' within ${timeoutMs} ms`);
    await sleep(20);
  }
}

interface Delivery {
  delivered: number;
  expected: number;
  complete: number;
}

function delivery(before: FleetSnapshot, after: FleetSnapshot, events: number, lastSeq: number): Delivery {
  const delivered = after.counts.reduce((s, c, i) => s + c - (before.counts[i] ?? 0), 0);
  return { delivered, expected: CLIENTS * events, complete: after.maxIds.filter((m) => m >= lastSeq).length };
}

const line = (ok: boolean, text: string) => console.log(`  ${ok ? 'PASS' : 'FAIL'}: ${text}`);

async function run(): Promise<BenchResult> {
  const svc = await startSvc();
  const pid = svc.proc.pid;
  let fleet: Fleet | null = null;
  let writer: Proc | null = null;
  try {
    console.log(`  server pid ${pid}, open-file limit ${openFileLimit(pid)} (${CLIENTS} streams need about ${CLIENTS + 50} fds)`);
    await sleep(1000);
    const rssBefore = await settledRssKb(pid);
    const since = maxSeq(svc.dbPath);
    const tOpen = performance.now();
    fleet = await openFleet(svc.port, since, CLIENTS, SAMPLED);
    const openMs = performance.now() - tOpen;
    await sleep(1000);
    const rssIdle = await settledRssKb(pid);
    console.log(`  ${CLIENTS} streams open in ${fmt(openMs)} ms (since=${since}); RSS ${fmt(rssBefore / 1024, 1)} MB → ${fmt(rssIdle / 1024, 1)} MB`);

    // Phase 1: another process writes.
    const stats0 = await tailStats(svc.port, true);
    const snap0 = await fleet.snapshot();
    fleet.takeLatencies();
    writer = spawnNode(['--import', 'tsx', WRITER, svc.dbPath, String(RATE), String(EXTERNAL_MS)], process.env);
    await waitForLine(writer, 'start', 20_000);
    const clientsCpu0 = cpuSeconds(fleet.counters.pid);
    const win1 = measure(pid);
    const done = await waitForLine(writer, 'done', EXTERNAL_MS + 30_000);
    const w1 = win1.stop();
    const clientsCpu1 = cpuSeconds(fleet.counters.pid);
    await writer.exited;
    writer = null;
    const appended = Number(done.appended);
    const lastSeq1 = Number(done.lastSeq);
    const drained1 = await fleet.drained(lastSeq1, 3 * TICK_MS + 3000);
    const snap1 = await fleet.snapshot();
    const lat1 = fleet.takeLatencies();
    let stats1 = await tailStats(svc.port, false);
    let statsNote = 'GET /api/health';
    if (stats1.ticks <= stats0.ticks) {
      // GET serves the cached boot report: ask for a fresh one.
      stats1 = await tailStats(svc.port, true);
      statsNote = 'POST /api/health/recheck (GET /api/health is cached)';
    }
    const d1 = delivery(snap0, snap1, appended, lastSeq1);
    const ticks = stats1.ticks - stats0.ticks;
    const queries = stats1.queries - stats0.queries;
    const qPerTickPerTable = queries / ticks / TABLES;
    const rssWindow = median(w1.rssKb);
    const kbPerStream = (rssWindow - rssBefore) / CLIENTS;
    const kbPerStreamIdle = (rssIdle - rssBefore) / CLIENTS;
    // Judged on the larger of the two: a GC that shrinks the heap mid-window must not flatter it.
    const kbJudged = Math.max(kbPerStream, kbPerStreamIdle);
    const rssPeak = max(w1.rssKb);
    const p50e = percentile(lat1, 50);
    const p99e = percentile(lat1, 99);
    console.log(`  phase 1 (external writer, ${appended} events in ${fmt(Number(done.ms))} ms):`);
    console.log(`    delivered ${fmt(d1.delivered)}/${fmt(d1.expected)}; clients with every row ${d1.complete}/${CLIENTS}; duplicates ${snap1.dups}; closed ${snap1.closed}; drained ${drained1}`);
    console.log(`    tail: ${ticks} ticks, ${queries} queries → ${fmt(queries / ticks, 2)} per tick, ${fmt(qPerTickPerTable, 2)} per table (${statsNote})`);
    console.log(`    server CPU ${fmt(w1.cpuPercent, 1)} % of one core over ${fmt(w1.wallMs / 1000, 1)} s; client process CPU ${fmt(((clientsCpu1 - clientsCpu0) / (w1.wallMs / 1000)) * 100, 1)} %`);
    console.log(
      `    RSS per stream ${fmt(kbPerStream, 1)} KB during the window (median RSS ${fmt(rssWindow / 1024, 1)} MB, peak ${fmt(rssPeak / 1024, 1)} MB), ` +
        `${fmt(kbPerStreamIdle, 1)} KB with the streams open and no events`,
    );
    console.log(`    delivery latency (${lat1.length} samples from ${SAMPLED} clients): p50 ${fmt(p50e)} ms, p99 ${fmt(p99e)} ms, max ${fmt(max(lat1))} ms`);

    // Phase 2: svc's own appends.
    const snap2a = await fleet.snapshot();
    fleet.takeLatencies();
    const clientsCpu2 = cpuSeconds(fleet.counters.pid);
    const win2 = measure(pid);
    const load = await ingestAtRate(svc.port, RATE, OWN_MS);
    const w2 = win2.stop();
    const clientsCpu3 = cpuSeconds(fleet.counters.pid);
    const lastSeq2 = maxSeq(svc.dbPath);
    const drained2 = await fleet.drained(lastSeq2, 3 * TICK_MS + 3000);
    const snap2 = await fleet.snapshot();
    const lat2 = fleet.takeLatencies();
    const d2 = delivery(snap2a, snap2, load.ok, lastSeq2);
    const p50o = percentile(lat2, 50);
    const p99o = percentile(lat2, 99);
    console.log(`  phase 2 (POST /api/obs/ingest, ${load.ok} ok, ${load.failed} failed in ${fmt(w2.wallMs)} ms):`);
    console.log(`    delivered ${fmt(d2.delivered)}/${fmt(d2.expected)}; clients with every row ${d2.complete}/${CLIENTS}; duplicates ${snap2.dups - snap1.dups}; drained ${drained2}`);
    console.log(`    server CPU ${fmt(w2.cpuPercent, 1)} % of one core; client process CPU ${fmt(((clientsCpu3 - clientsCpu2) / (w2.wallMs / 1000)) * 100, 1)} %`);
    console.log(`    delivery latency (${lat2.length} samples): p50 ${fmt(p50o)} ms, p99 ${fmt(p99o)} ms, max ${fmt(max(lat2))} ms`);
    console.log(`    POST round trip: p50 ${fmt(percentile(load.postMs, 50), 1)} ms, p99 ${fmt(percentile(load.postMs, 99), 1)} ms`);

    const ratioTick = p99e / TICK_MS;
    const ratioOwn = p99o / p99e;
    console.log(`  baseline: external p99 ${fmt(p99e)} ms = ${fmt(ratioTick, 2)}× the ${TICK_MS} ms tick; own-append p99 ${fmt(p99o)} ms = ${fmt(ratioOwn, 3)}× the external p99`);

    const ok = {
      delivered: d1.delivered === d1.expected && d2.delivered === d2.expected && load.failed === 0 && snap2.dups === 0,
      queries: Math.abs(qPerTickPerTable - 1) < 0.01,
      cpu: w1.cpuPercent < TARGET.cpuPercent,
      rss: kbJudged <= TARGET.kbPerStream,
      external: p99e <= TARGET.externalP99,
      own: p99o < TARGET.ownP99,
    };
    line(ok.delivered, `every event to every client (external ${pct(d1.delivered / d1.expected, 2)}, own ${pct(d2.delivered / Math.max(1, d2.expected), 2)}, no duplicates)`);
    line(ok.queries, `queries per tick per table ${fmt(qPerTickPerTable, 2)} (target 1)`);
    line(ok.cpu, `server CPU ${fmt(w1.cpuPercent, 1)} % (target < ${TARGET.cpuPercent} %)`);
    line(ok.rss, `${fmt(kbJudged, 1)} KB per stream, the larger of window ${fmt(kbPerStream, 1)} and idle ${fmt(kbPerStreamIdle, 1)} (target ≤ ${TARGET.kbPerStream} KB)`);
    line(ok.external, `external-write p99 ${fmt(p99e)} ms (target ≤ ${fmt(TARGET.externalP99)} ms)`);
    line(ok.own, `own-append p99 ${fmt(p99o)} ms (target < ${TARGET.ownP99} ms)`);
    const pass = Object.values(ok).every(Boolean);
    const failed = Object.entries(ok).filter(([, v]) => !v).map(([k]) => k);
    line(pass, pass ? 'sse-fanout: all targets met' : `sse-fanout: missed ${failed.join(', ')}`);
    return {
      name: 'sse-fanout',
      figures:
        `delivered ${pct(d1.delivered / d1.expected, 1)}/${pct(d2.delivered / Math.max(1, d2.expected), 1)}; ` +
        `${fmt(qPerTickPerTable, 2)} q/tick/table; CPU ${fmt(w1.cpuPercent, 1)} % (own ${fmt(w2.cpuPercent, 1)} %); ` +
        `${fmt(kbJudged, 1)} KB/stream; p50/p99 ext ${fmt(p50e)}/${fmt(p99e)} ms, own ${fmt(p50o)}/${fmt(p99o)} ms`,
      ratio: `ext p99 ${fmt(ratioTick, 2)}× tick; own p99 ${fmt(ratioOwn, 3)}× ext`,
      target: 'all, 1 q/tick/table, <10 %, ≤20 KB, p99 ≤1 s / <100 ms',
      pass,
    };
  } finally {
    await writer?.stop();
    await fleet?.close();
    await svc.stop();
  }
}

export const sseFanout: Benchmark = { name: 'sse-fanout', run };
