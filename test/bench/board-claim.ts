// Board claim throughput with two threads contending. A temporary database
// is seeded with 50,000 todo tasks (lib/seed.ts); two worker_threads
// (fixtures/claim-worker.ts), each with its own connection, walk the same
// task list in the same order and claim every task in turn for 3 s, so that
// they really contend: a task one thread has just taken is a conflict for the
// other. svc: the project's board (createBoard + createTx + createEventLog,
// a pino logger writing nowhere). Baseline, same run, a fresh copy of the
// same seed: the minimal claim with raw better-sqlite3 (BEGIN IMMEDIATE;
// UPDATE ... WHERE id = ? AND status = 'todo'; one events row; COMMIT).
// Four rounds, the order of the two alternating. After every run the
// database is checked: each claimed task has exactly one task_claimed event
// (by its assignee), each unclaimed task none, the threads' wins add up to
// the claimed tasks, and no SQLITE_BUSY surfaced; a database that fails the
// check is copied to the temporary directory (path printed). The threads are
// not pinned (two contenders, two cores). Target: svc wins/s ≥ 50 % of the
// baseline's (median of the per-round ratios).
import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { workerLaunch } from '../../supervisor/services/supervision.ts';
import { removeHome, tempHome } from '../helpers/server.ts';
import type { ClaimResult, ClaimWorkerData } from './fixtures/claim-worker.ts';
import { seedTasks } from './lib/seed.ts';
import { fmt, median, pct, sleep } from './lib/stats.ts';
import type { Benchmark, BenchResult } from './lib/types.ts';

const TASKS = 50_000;
const RUN_MS = 3000;
const ROUNDS = 4;
const TARGET = 0.5;
const WORKER_ENTRY = new URL('./fixtures/claim-worker.ts', import.meta.url);

type Mode = ClaimWorkerData['mode'];

interface PairRun {
  wins: number;
  conflicts: number;
  busy: number;
  /** Wall time of the slower thread (s). */
  seconds: number;
  winsPerS: number;
  attemptsPerS: number;
  threads: ClaimResult[];
  exhausted: boolean;
}

interface Verdict {
  ok: boolean;
  claimed: number;
  problems: string[];
}

interface Thread {
  worker: Worker;
  /** Settles with the thread's figures (after 'go'), or its failure at any time. */
  result: Promise<ClaimResult>;
  exited: Promise<void>;
}

/** Starts one claiming thread; resolves once it has read its list and is ready. */
function startThread(data: ClaimWorkerData): Promise<Thread> {
  const { url, data: workerData } = workerLaunch(WORKER_ENTRY, data);
  const worker = new Worker(url, { workerData, name: `claim-${data.mode}` });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const ready = new Promise<Thread>((resolveReady, rejectReady) => {
    let settle: { resolve: (r: ClaimResult) => void; reject: (err: Error) => void } | undefined;
    const result = new Promise<ClaimResult>((resolve, reject) => (settle = { resolve, reject }));
    // Awaited by the caller after 'go'; a failure before that must not go unhandled.
    result.catch(() => undefined);
    // Settling an already settled promise is a no-op: the first outcome counts.
    const fail = (err: Error) => {
      rejectReady(err);
      settle?.reject(err);
    };
    worker.on('message', (msg: { type: 'ready' } | ClaimResult | { type: 'error'; message: string }) => {
      if (msg.type === 'ready') resolveReady({ worker, result, exited });
      else if (msg.type === 'result') settle?.resolve(msg);
      else fail(new Error(`claim worker (${data.mode}): ${msg.message}`));
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`claim worker (${data.mode}) exited (${code}) without a result`)));
  });
  return ready.catch(async (err: unknown) => {
    await worker.terminate();
    throw err;
  });
}

async function runPair(mode: Mode, dbPath: string, agentIds: string[]): Promise<PairRun> {
  const started: Thread[] = [];
  try {
    for (const agentId of agentIds) started.push(await startThread({ mode, dbPath, agentId }));
    const deadline = Date.now() + RUN_MS;
    for (const t of started) t.worker.postMessage({ type: 'go', deadline });
    const threads = await Promise.all(started.map((t) => t.result));
    // A thread closes its connection before it replies, then ends by itself.
    await Promise.race([Promise.all(started.map((t) => t.exited)), sleep(10_000)]);
    const wins = threads.reduce((n, t) => n + t.wins, 0);
    const conflicts = threads.reduce((n, t) => n + t.conflicts, 0);
    const busy = threads.reduce((n, t) => n + t.busy, 0);
    const seconds = Math.max(...threads.map((t) => t.ms)) / 1000;
    return {
      wins,
      conflicts,
      busy,
      seconds,
      winsPerS: wins / seconds,
      attemptsPerS: (wins + conflicts + busy) / seconds,
      threads,
      exhausted: threads.some((t) => t.exhausted),
    };
  } finally {
    // Only a thread that failed or hangs is still running here.
    await Promise.all(started.map((t) => t.worker.terminate()));
  }
}

/** Every task won at most once: one task_claimed event (by its assignee) per claimed task, none for the others. */
function verify(dbPath: string, run: PairRun): Verdict {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    // Grouped here rather than joined in SQL: a join on (task_id, kind) lets
    // SQLite pick the kind index and scan every claim event per task.
    const claims = new Map<string, string[]>();
    const events = db.prepare(`SELECT task_id AS taskId, agent_id AS agentId FROM events WHERE kind = 'task_claimed'`).all() as Array<{
      taskId: string;
      agentId: string;
    }>;
    for (const e of events) {
      const by = claims.get(e.taskId);
      if (by) by.push(e.agentId);
      else claims.set(e.taskId, [e.agentId]);
    }
    const tasks = db.prepare('SELECT id, status, assignee_agent_id AS assignee FROM tasks').all() as Array<{
      id: string;
      status: string;
      assignee: string | null;
    }>;
    const problems: string[] = [];
    let claimed = 0;
    let twice = 0;
    let unrecorded = 0;
    let stray = 0;
    for (const t of tasks) {
      const by = claims.get(t.id) ?? [];
      if (t.status === 'in_progress') {
        claimed++;
        if (by.length > 1) twice++;
        else if (by.length !== 1 || by[0] !== t.assignee) unrecorded++;
      } else if (t.status !== 'todo' || by.length !== 0 || t.assignee !== null) {
        stray++;
      }
    }
    if (twice > 0) problems.push(`${twice} tasks with more than one task_claimed event`);
    if (unrecorded > 0) problems.push(`${unrecorded} claimed tasks without exactly one task_claimed event by their assignee`);
    if (stray > 0) problems.push(`${stray} unclaimed tasks with an event, an assignee or another status`);
    if (claimed !== run.wins) problems.push(`${claimed} tasks claimed but the threads counted ${run.wins} wins`);
    if (events.length !== run.wins) problems.push(`${events.length} task_claimed events for ${run.wins} wins`);
    if (run.busy > 0) problems.push(`${run.busy} SQLITE_BUSY errors surfaced`);
    return { ok: problems.length === 0, claimed, problems };
  } finally {
    db.close();
  }
}

const show = (r: PairRun) =>
  `${fmt(r.winsPerS)} claims/s, ${fmt(r.attemptsPerS)} attempts/s ` +
  `(${fmt(r.wins)} won, ${fmt(r.conflicts)} conflicts, ${r.busy} busy in ${fmt(r.seconds, 2)} s; ` +
  `threads won ${r.threads.map((t) => fmt(t.wins)).join(' / ')}${r.exhausted ? '; list exhausted' : ''})`;

async function run(): Promise<BenchResult> {
  const dir = tempHome('svc-bench-claim-');
  try {
    const seedPath = join(dir, 'seed.db');
    const t0 = performance.now();
    const agentIds = seedTasks(seedPath, TASKS, 2);
    console.log(`  seeded ${fmt(TASKS)} todo tasks in ${fmt(performance.now() - t0)} ms; two threads, ${RUN_MS / 1000} s per run, unpinned`);
    const runs: Record<Mode, PairRun[]> = { raw: [], svc: [] };
    const problems: string[] = [];
    const modes: Mode[] = ['raw', 'svc'];
    for (let i = 1; i <= ROUNDS; i++) {
      for (let k = 0; k < modes.length; k++) {
        const mode = modes[(i + k) % modes.length] as Mode;
        const dbPath = join(dir, `${mode}-${i}.db`);
        // A fresh copy per run, all kept until the end of the benchmark, so
        // that no run opens a file name (or inode) an earlier run used.
        copyFileSync(seedPath, dbPath);
        const r = await runPair(mode, dbPath, agentIds);
        const v = verify(dbPath, r);
        runs[mode].push(r);
        problems.push(...v.problems.map((p) => `round ${i} ${mode}: ${p}`));
        const label = mode === 'raw' ? 'raw better-sqlite3' : 'svc board.claim   ';
        console.log(`  round ${i}: ${label} ${show(r)}; ${v.ok ? 'each task won at most once' : `CHECK FAILED: ${v.problems.join('; ')}`}`);
        if (!v.ok) {
          // The run's directory goes at the end: a database that failed the check is kept for inspection.
          const kept = join(tmpdir(), `svc-bench-claim-failed-${mode}-${i}-${Date.now()}.db`);
          copyFileSync(dbPath, kept);
          console.log(`  kept for inspection: ${kept}`);
        }
      }
    }
    const ratios = runs.svc.map((r, i) => r.winsPerS / (runs.raw[i] as PairRun).winsPerS);
    const ratio = median(ratios);
    const svcWins = median(runs.svc.map((r) => r.winsPerS));
    const rawWins = median(runs.raw.map((r) => r.winsPerS));
    const svcAttempts = median(runs.svc.map((r) => r.attemptsPerS));
    const rawAttempts = median(runs.raw.map((r) => r.attemptsPerS));
    const busy = [...runs.raw, ...runs.svc].reduce((n, r) => n + r.busy, 0);
    const correct = problems.length === 0;
    const fast = ratio >= TARGET;
    console.log(`  per-round claims/s ratios svc/raw: ${ratios.map((x) => pct(x)).join(', ')}`);
    console.log(
      `  medians: raw ${fmt(rawWins)} claims/s (${fmt(rawAttempts)} attempts/s), svc ${fmt(svcWins)} claims/s ` +
        `(${fmt(svcAttempts)} attempts/s), ratio ${pct(ratio)} (attempts ${pct(svcAttempts / rawAttempts)})`,
    );
    console.log(
      `  ${correct ? 'PASS' : 'FAIL'}: every task won at most once (one task_claimed event per claimed task, none otherwise), ` +
        `${busy} SQLITE_BUSY surfaced${correct ? '' : `: ${problems.join('; ')}`}`,
    );
    console.log(`  ${fast ? 'PASS' : 'FAIL'}: svc board.claim at ${pct(ratio)} of raw better-sqlite3 claims/s (target ≥ ${pct(TARGET, 0)})`);
    return {
      name: 'board-claim',
      figures:
        `svc ${fmt(svcWins)} claims/s (${fmt(svcAttempts)} attempts/s), raw ${fmt(rawWins)} claims/s (${fmt(rawAttempts)} attempts/s); ` +
        `${correct ? 'each task won once' : 'CHECK FAILED'}, ${busy} SQLITE_BUSY`,
      ratio: `${pct(ratio)} of raw claims/s (median per-round ratio, ${ROUNDS} rounds, 2 threads)`,
      target: `≥ ${pct(TARGET, 0)} of raw claims/s; each task won once; no SQLITE_BUSY`,
      pass: fast && correct,
    };
  } finally {
    removeHome(dir);
  }
}

export const boardClaim: Benchmark = { name: 'board-claim', run };
