// Observability reads on a log of 1,000,000 events. The home is seeded
// before svc starts (openDatabase, so the schema is svc's own, then plain
// SQL in one transaction; UUIDv7 ids): 50 teams × 10 agents, 20,000 tasks
// (board rows and their board events with snapshots, a dependency for every
// tenth), ~200-event traces, and one 5,000-event trace spread one row in 200
// across the whole log (the worst case for locality); kinds ~35 % tool_call,
// 35 % tool_result, 10 % cost, 2 % error, 4 % each execution start/end, the
// rest board events; ts spread over the last ~14 h. Each read is driven by
// lib/lean-load.ts over one keep-alive connection (requests back to back),
// 1 s warm-up + 4 s measured, every answer checked 200. Targets (the
// issue's): filtered feed p99 < 10 ms, health and graph folds p99 < 30 ms,
// the 5,000-event trace p99 < 50 ms; then the filtered feeds again while
// POST /api/obs/ingest runs at a steady INGEST_RATE events/s (200-event
// batches, 2 connections, posted from a child process so that building the
// batches does not delay this process's reads): p99 < 5 ms. Baseline: GET
// /api/settings on the same server, the same way (what any request costs).
import { join } from 'node:path';
import { checkpointAndClose, openDatabase } from '../../shared/db/open.ts';
import { uuidv7 } from '../../shared/ids.ts';
import { MASK_RULES_VERSION } from '../../shared/redact.ts';
import { removeHome, tempHome } from '../helpers/server.ts';
import { httpJson, httpRequest } from './lib/http.ts';
import { ingestLoadInChild } from './lib/ingest-child.ts';
import { leanLoad } from './lib/lean-load.ts';
import { fmt } from './lib/stats.ts';
import { startSvc, type Svc } from './lib/svc.ts';
import type { Benchmark, BenchResult } from './lib/types.ts';

const EVENTS = 1_000_000;
const TEAMS = 50;
const AGENTS_PER_TEAM = 10;
const TASKS = 20_000;
const BIG_TRACE = 'trace-big';
const BIG_TRACE_EVERY = EVENTS / 5000;
const INGEST_RATE = 5000;
const WARMUP_S = 1;
const MEASURE_S = 4;

const team = (i: number) => `team-${String(i % TEAMS).padStart(2, '0')}`;

/** Seeds `EVENTS` events and the board rows they name; returns the task ids. */
export function seedObsLog(dbPath: string): void {
  const db = openDatabase(dbPath);
  try {
    const start = Date.now() - 14 * 3600_000;
    const step = (14 * 3600_000) / EVENTS;
    const taskIds = Array.from({ length: TASKS }, (_, i) => uuidv7(start + i));
    const agentOf = (task: number) => `agent-${team(task)}-${task % AGENTS_PER_TEAM}`;
    const ev = db.prepare(
      // mask_version as appendEvent stores it: the seeded data holds no
      // secrets, so it is what svc's own writer would have stored.
      `INSERT INTO events (id, ts, kind, team_id, task_id, agent_id, runtime, trace_id, data, created_at, mask_version)
       VALUES (?, ?, ?, ?, ?, ?, 'gateway', ?, ?, ?, ${MASK_RULES_VERSION})`,
    );
    const task = db.prepare(
      `INSERT INTO tasks (id, team_id, title, status, assignee_agent_id, created_by_agent_id, parent_task_id, runtime, created_at, updated_at)
       VALUES (?, ?, ?, 'in_progress', ?, ?, ?, 'gateway', ?, ?)`,
    );
    const dep = db.prepare('INSERT INTO task_dependencies (task_id, depends_on_task_id, created_at) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (let t = 0; t < TASKS; t++) {
        const parent = t >= TEAMS && t % 3 === 0 ? (taskIds[t - TEAMS] as string) : null;
        task.run(taskIds[t], team(t), `task ${t}`, agentOf(t), parent ? agentOf(t - TEAMS) : null, parent, start, start);
        if (t >= TEAMS && t % 10 === 0) dep.run(taskIds[t], taskIds[t - TEAMS], start);
      }
      for (let i = 0; i < EVENTS; i++) {
        const ts = Math.round(start + i * step);
        const t = (i * 7919) % TASKS; // spread tasks (and so teams and agents) over the log
        const taskId = taskIds[t] as string;
        const agentId = agentOf(t);
        const big = i % BIG_TRACE_EVERY === 0;
        const traceId = big ? BIG_TRACE : `trace-${Math.floor(i / 200)}`;
        const k = i % 50;
        let kind: string;
        let data: unknown;
        if (k < 17) [kind, data] = ['tool_call', { tool: 'read_file', args: { path: `/src/m${i % 97}.ts` }, callId: `c${i}` }];
        else if (k < 35) [kind, data] = ['tool_result', { tool: 'read_file', callId: `c${i}`, isError: i % 23 === 0, durationMs: i % 300 }];
        else if (k < 40) [kind, data] = ['cost', { model: 'claude-sonnet-4-5', inputTokens: 1200 + (i % 500), outputTokens: 300 + (i % 200) }];
        else if (k === 40) [kind, data] = ['error', { errorClass: i % 3 ? 'ToolTimeout' : undefined, message: `step ${i} failed` }];
        else if (k < 43) [kind, data] = ['execution_started', {}];
        else if (k < 45) [kind, data] = ['execution_completed', {}];
        else if (k === 45) [kind, data] = ['dep_linked', { dependsOnTaskId: taskIds[(t + TASKS - TEAMS) % TASKS], linked: true }];
        else {
          const parentTaskId = t >= TEAMS && t % 3 === 0 ? taskIds[t - TEAMS] : null;
          kind = k === 46 ? 'task_created' : 'status_changed';
          data = { title: `task ${t}`, status: 'in_progress', assigneeAgentId: agentId, parentTaskId };
        }
        ev.run(uuidv7(ts), ts, kind, team(t), taskId, agentId, traceId, JSON.stringify(data), ts);
      }
    })();
  } finally {
    checkpointAndClose(db);
  }
}

interface Read {
  label: string;
  path: string;
  targetMs: number;
  p50: number;
  p99: number;
  rps: number;
}

async function measure(svc: Svc, label: string, path: string, targetMs: number): Promise<Read> {
  const url = `http://127.0.0.1:${svc.port}${path}`;
  await leanLoad({ url, connections: 1, durationS: WARMUP_S });
  const r = await leanLoad({ url, connections: 1, durationS: MEASURE_S });
  const bad = r.total - (r.statuses[200] ?? 0);
  if (r.errors + bad > 0) throw new Error(`${path}: ${r.errors} errors, ${bad} non-200 answers (${JSON.stringify(r.statuses)})`);
  const read = { label, path, targetMs, p50: r.p50, p99: r.p99, rps: r.rps };
  console.log(`  ${read.p99 < targetMs ? 'PASS' : 'FAIL'}: ${label.padEnd(34)} p50 ${fmt(r.p50, 2)} ms, p99 ${fmt(r.p99, 2)} ms (target < ${targetMs} ms), ${fmt(r.rps)} req/s  ${path}`);
  return read;
}

async function run(): Promise<BenchResult> {
  const home = tempHome('svc-bench-obs-');
  try {
    const t0 = performance.now();
    seedObsLog(join(home, 'svc.db'));
    console.log(`  seeded ${fmt(EVENTS)} events, ${fmt(TASKS)} tasks in ${fmt((performance.now() - t0) / 1000, 1)} s`);
  } catch (err) {
    removeHome(home);
    throw err;
  }
  const svc = await startSvc({}, { home });
  try {
    // The boot probe's integrity check reads the whole ~480 MB file (about
    // 4 s of one core): the reads are measured after it, not beside it.
    // GET /api/health waits for the boot probe when it has not finished.
    const t1 = performance.now();
    await httpRequest(svc.port, '/api/health', { timeoutMs: 120_000 });
    console.log(`  boot probe done ${fmt((performance.now() - t1) / 1000, 1)} s after the first 200`);
    const trace = await httpJson<{ events: unknown[] }>(svc.port, `/api/obs/traces/${BIG_TRACE}`);
    if (trace.events.length !== 5000) throw new Error(`the big trace has ${trace.events.length} events, expected 5000`);
    const T = team(7);
    const A = `agent-${T}-3`;
    const feeds: Array<[string, string]> = [
      ['feed teamId (500 rows)', `/api/obs/events?teamId=${T}`],
      ['feed teamId desc (500 rows)', `/api/obs/events?teamId=${T}&order=desc`],
      ['feed agentId+kinds desc limit 100', `/api/obs/events?agentId=${A}&kinds=tool_call,error&order=desc&limit=100`],
      ['feed traceId afterSeq (~200 rows)', `/api/obs/events?traceId=trace-4000&afterSeq=0`],
      ['feed kinds=error desc (500 rows)', '/api/obs/events?kinds=error&order=desc'],
    ];
    const base = await measure(svc, 'baseline GET /api/settings', '/api/settings', Infinity);
    const reads: Read[] = [];
    for (const [label, path] of feeds) reads.push(await measure(svc, label, path, 10));
    reads.push(await measure(svc, 'health (all teams)', '/api/obs/health', 30));
    reads.push(await measure(svc, 'health teamId', `/api/obs/health?teamId=${T}`, 30));
    reads.push(await measure(svc, 'graph (all teams)', '/api/obs/graph', 30));
    reads.push(await measure(svc, 'graph teamId', `/api/obs/graph?teamId=${T}`, 30));
    reads.push(await measure(svc, 'trace of 5,000 events', `/api/obs/traces/${BIG_TRACE}`, 50));
    reads.push(await measure(svc, 'errors (500 newest)', '/api/obs/errors', Infinity));

    console.log(`  while POST /api/obs/ingest runs at ${fmt(INGEST_RATE)} events/s (200-event batches, 2 connections):`);
    const during: Read[] = [];
    const ingest = ingestLoadInChild(svc.port, { connections: 2, seconds: feeds.length * (WARMUP_S + MEASURE_S) + 1, perSecond: INGEST_RATE });
    await ingest.started;
    for (const [label, path] of feeds) during.push(await measure(svc, `${label} + ingest`, path, 5));
    const ing = await ingest.done;
    console.log(`  ingest meanwhile: ${fmt(ing.eventsPerS)} events/s, POST p99 ${fmt(ing.p99, 1)} ms, ${ing.failed} failed`);

    const all = [...reads, ...during];
    const failed = all.filter((r) => !(r.p99 < r.targetMs));
    const worst = (rs: Read[]) => fmt(Math.max(...rs.map((r) => r.p99)), 1);
    const byTarget = (ms: number) => reads.filter((r) => r.targetMs === ms);
    return {
      name: 'obs-reads',
      figures:
        `1M events: feed p99 ≤ ${worst(byTarget(10))} ms, health/graph p99 ≤ ${worst(byTarget(30))} ms, trace 5k p99 ${worst(byTarget(50))} ms, ` +
        `errors p99 ${worst(reads.filter((r) => r.label.startsWith('errors')))} ms; feed during ingest p99 ≤ ${worst(during)} ms (ingest ${fmt(ing.eventsPerS)} ev/s)`,
      ratio: `baseline GET /api/settings p99 ${fmt(base.p99, 2)} ms; worst feed p99 = ${fmt(Math.max(...byTarget(10).map((r) => r.p99)) / base.p99, 1)}× it`,
      target: 'feed p99 < 10 ms, health/graph < 30 ms, 5k trace < 50 ms, feed during ingest < 5 ms',
      pass: failed.length === 0,
    };
  } finally {
    await svc.stop();
  }
}

export const obsReads: Benchmark = { name: 'obs-reads', run };
