// POST /api/obs/ingest throughput against a raw better-sqlite3 batched
// insert of the same rows into the same schema, measured in the same run.
// svc: the production build on a fresh home; CONNECTIONS keep-alive
// connections each POST a 200-event batch (the spec's per-call maximum:
// tool_call / tool_result / error rows with a realistic small `data`), wait
// for the answer, POST the next; every answer checked `{ ok: true, count: 200 }`.
// Baseline: this process opens a fresh database with the project's
// openDatabase (the same migrated schema, WAL, synchronous NORMAL) and
// inserts the same rows with one prepared INSERT, 200 per transaction, ids
// minted per row (UUIDv7) and data as JSON text, for the same time. Rounds
// alternate which runs first. Targets (the issue's): svc events/s ≥ 60 % of
// the baseline (median of per-round ratios) and ≥ 25,000 events/s, POST p99
// < 150 ms (median of rounds).
import { Agent } from 'node:http';
import { join } from 'node:path';
import { checkpointAndClose, openDatabase } from '../../shared/db/open.ts';
import { uuidv7 } from '../../shared/ids.ts';
import { removeHome, tempHome } from '../helpers/server.ts';
import { httpRequest } from './lib/http.ts';
import { fmt, median, pct, percentile } from './lib/stats.ts';
import { startSvc } from './lib/svc.ts';
import type { Benchmark, BenchResult } from './lib/types.ts';

export const BATCH = 200;
const CONNECTIONS = 4;
const WARMUP_S = 2;
const MEASURE_S = 5;
const ROUNDS = 3;
const TARGET_RATIO = 0.6;
const TARGET_EPS = 25_000;
const TARGET_P99_MS = 150;

export interface IngestEvent {
  kind: 'tool_call' | 'tool_result' | 'error';
  ts: number;
  teamId: string;
  taskId: string;
  agentId: string;
  traceId: string;
  runtime: string;
  data: Record<string, unknown>;
}

/** One batch as a client sends it; `n` varies the ids so that batches differ. */
export function batch(n: number, ts = Date.now()): IngestEvent[] {
  return Array.from({ length: BATCH }, (_, i) => {
    const k = (n * BATCH + i) % 10;
    const kind = k < 5 ? 'tool_call' : k < 9 ? 'tool_result' : 'error';
    const data =
      kind === 'tool_call' ? { tool: 'read_file', args: { path: `/src/module-${i}.ts`, limit: 200 }, callId: `c${n}-${i}` }
      : kind === 'tool_result' ? { tool: 'read_file', callId: `c${n}-${i}`, isError: i % 17 === 0, durationMs: 12 + (i % 40), bytes: 2048 }
      : { errorClass: i % 3 === 0 ? 'Unknown' : 'ToolTimeout', message: `tool read_file timed out after ${i} ms` };
    return {
      kind, ts, runtime: 'gateway', data,
      teamId: `team-${n % 20}`, taskId: `task-${n % 500}`, agentId: `agent-${(n + i) % 100}`, traceId: `trace-${n % 2000}`,
    };
  });
}

export interface IngestRun {
  events: number;
  eventsPerS: number;
  p99: number;
  posts: number;
  failed: number;
}

/**
 * `connections` loops that POST 200-event batches back to back for `seconds`
 * (or, with `perSecond`, at that steady total rate of events). Bodies are
 * prepared before the clock starts.
 */
export async function ingestLoad(port: number, opts: { connections: number; seconds: number; perSecond?: number }): Promise<IngestRun> {
  const bodies = Array.from({ length: 64 }, (_, n) => JSON.stringify({ events: batch(n) }));
  const agent = new Agent({ keepAlive: true, maxSockets: opts.connections });
  const lat: number[] = [];
  let events = 0;
  let failed = 0;
  let next = 0;
  const t0 = performance.now();
  const deadline = t0 + opts.seconds * 1000;
  const gapMs = opts.perSecond ? (BATCH * 1000 * opts.connections) / opts.perSecond : 0;
  const loop = async (c: number) => {
    let due = t0 + (gapMs * c) / opts.connections;
    while (performance.now() < deadline) {
      if (gapMs > 0) {
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        due += gapMs;
      }
      const s = performance.now();
      try {
        const r = await httpRequest(port, '/api/obs/ingest', { method: 'POST', body: bodies[next++ % bodies.length], agent, timeoutMs: 10_000 });
        const count = r.status === 200 ? (JSON.parse(r.body) as { count?: number }).count : undefined;
        if (count === BATCH) {
          events += BATCH;
          lat.push(performance.now() - s);
        } else failed++;
      } catch (err) {
        // Counted as a failed POST: part of the figures, not a crash.
        failed++;
        if (failed === 1) console.error('  ingest POST failed:', err);
      }
    }
  };
  await Promise.all(Array.from({ length: opts.connections }, (_, c) => loop(c)));
  agent.destroy();
  const seconds = (performance.now() - t0) / 1000;
  return { events, eventsPerS: events / seconds, p99: percentile(lat, 99), posts: lat.length, failed };
}

/** The baseline: the same rows, raw better-sqlite3, 200 per transaction, for `seconds`. */
function rawInsert(seconds: number): number {
  const home = tempHome('svc-bench-raw-ingest-');
  const db = openDatabase(join(home, 'svc.db'));
  try {
    const insert = db.prepare(
      `INSERT INTO events (id, ts, kind, team_id, task_id, agent_id, runtime, trace_id, data, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const prepared = Array.from({ length: 64 }, (_, n) => batch(n).map((e) => ({ ...e, text: JSON.stringify(e.data) })));
    const write = db.transaction((rows: (typeof prepared)[number]) => {
      const now = Date.now();
      for (const e of rows) insert.run(uuidv7(now), e.ts, e.kind, e.teamId, e.taskId, e.agentId, e.runtime, e.traceId, e.text, now);
    });
    const t0 = performance.now();
    const deadline = t0 + seconds * 1000;
    let events = 0;
    for (let n = 0; performance.now() < deadline; n++) {
      write(prepared[n % prepared.length] as (typeof prepared)[number]);
      events += BATCH;
    }
    return events / ((performance.now() - t0) / 1000);
  } finally {
    checkpointAndClose(db);
    removeHome(home);
  }
}

async function svcRun(): Promise<IngestRun> {
  const svc = await startSvc();
  try {
    await ingestLoad(svc.port, { connections: CONNECTIONS, seconds: WARMUP_S });
    const r = await ingestLoad(svc.port, { connections: CONNECTIONS, seconds: MEASURE_S });
    if (r.failed > 0) throw new Error(`${r.failed} ingest POSTs failed`);
    return r;
  } finally {
    await svc.stop();
  }
}

async function run(): Promise<BenchResult> {
  const raws: number[] = [];
  const svcs: IngestRun[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    for (const which of i % 2 === 0 ? ['raw', 'svc'] : ['svc', 'raw']) {
      if (which === 'raw') {
        rawInsert(WARMUP_S);
        raws.push(rawInsert(MEASURE_S));
        console.log(`  round ${i + 1}: raw better-sqlite3, 200 per transaction: ${fmt(raws[i] ?? NaN)} events/s`);
      } else {
        const r = await svcRun();
        svcs.push(r);
        console.log(`  round ${i + 1}: svc POST /api/obs/ingest (${CONNECTIONS} connections, ${BATCH} per POST): ${fmt(r.eventsPerS)} events/s, p99 ${fmt(r.p99, 1)} ms (${fmt(r.posts)} POSTs)`);
      }
    }
  }
  const ratio = median(svcs.map((s, i) => s.eventsPerS / (raws[i] as number)));
  const eps = median(svcs.map((s) => s.eventsPerS));
  const p99 = median(svcs.map((s) => s.p99));
  const raw = median(raws);
  const ratioOk = ratio >= TARGET_RATIO;
  const epsOk = eps >= TARGET_EPS;
  const p99Ok = p99 < TARGET_P99_MS;
  console.log(`  ${ratioOk ? 'PASS' : 'FAIL'}: svc ingest at ${pct(ratio)} of raw better-sqlite3 (target ≥ ${pct(TARGET_RATIO, 0)})`);
  console.log(`  ${epsOk ? 'PASS' : 'FAIL'}: svc ingest ${fmt(eps)} events/s (target ≥ ${fmt(TARGET_EPS)})`);
  console.log(`  ${p99Ok ? 'PASS' : 'FAIL'}: POST p99 ${fmt(p99, 1)} ms (target < ${TARGET_P99_MS} ms)`);
  return {
    name: 'obs-ingest',
    figures: `svc ${fmt(eps)} events/s (p99 ${fmt(p99, 1)} ms per 200-event POST, ${CONNECTIONS} connections), raw ${fmt(raw)} events/s`,
    ratio: `${pct(ratio)} of raw (median of ${ROUNDS} per-round ratios: ${svcs.map((s, i) => pct(s.eventsPerS / (raws[i] as number))).join(', ')})`,
    target: `≥ ${pct(TARGET_RATIO, 0)} of raw and ≥ ${fmt(TARGET_EPS)} events/s; p99 < ${TARGET_P99_MS} ms`,
    pass: ratioOk && epsOk && p99Ok,
  };
}

export const obsIngest: Benchmark = { name: 'obs-ingest', run };
