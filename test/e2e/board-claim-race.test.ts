// The atomic claim across threads: several worker threads, each with its own
// connection to the same WAL database, are released at the same instant to
// claim the same task. Exactly one wins, the others get a conflict (never
// SQLITE_BUSY), the row names the winner and exactly one task_claimed event
// exists. Repeated for many tasks in one run, half of the rounds with the
// write lock held elsewhere while the claims start, so that they all pile up
// on SQLite's busy handler at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { createBoard } from '../../shared/board/board.ts';
import { openDatabase } from '../../shared/db/open.ts';
import { createTx } from '../../shared/db/tx.ts';
import { createEventLog } from '../../shared/events/event-log.ts';
import { createLogger } from '../../shared/log.ts';
import { workerLaunch } from '../../supervisor/services/supervision.ts';
import type { ClaimWorkerData, ClaimWorkerMessage } from '../fixtures/claim-worker.ts';

const WORKERS = 6;
const TASKS = 20;
/** How long the write lock is held on odd rounds: a scheduling aid only, asserted nowhere. */
const entry = new URL('../fixtures/claim-worker.ts', import.meta.url);

type Result = Extract<ClaimWorkerMessage, { type: 'result' }>;

/** Messages from all workers, awaited by predicate; a worker error or early exit fails every wait. */
function mailbox(workers: Worker[]) {
  const inbox: ClaimWorkerMessage[] = [];
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const poke = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  for (const [i, w] of workers.entries()) {
    w.on('message', (m: ClaimWorkerMessage) => {
      inbox.push(m);
      poke();
    });
    w.on('error', (err) => {
      failure ??= err instanceof Error ? err : new Error(String(err));
      poke();
    });
    w.on('exit', (code) => {
      if (code !== 0) failure ??= new Error(`worker ${i} exited with code ${code}`);
      poke();
    });
  }
  /** Takes `count` messages matching `pred` once they have all arrived. */
  async function take<M extends ClaimWorkerMessage>(count: number, pred: (m: ClaimWorkerMessage) => m is M): Promise<M[]> {
    for (;;) {
      if (failure) throw failure;
      const hits = inbox.filter(pred);
      if (hits.length >= count) {
        const out = hits.slice(0, count);
        for (const m of out) inbox.splice(inbox.indexOf(m), 1);
        return out;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  }
  return { take };
}

void test('Board claim race: of concurrent claims from worker threads on separate connections exactly one wins', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-claim-race-'));
  const dbPath = join(dir, 'svc.db');
  const db = openDatabase(dbPath);
  const logger = createLogger({ level: 'info' }, { write: () => undefined });
  const tx = createTx(db, (err) => {
    throw err;
  });
  const board = createBoard({ db, tx, eventLog: createEventLog({ db, tx, logger }) });
  const workers: Worker[] = [];
  t.after(async () => {
    await Promise.all(workers.map((w) => w.terminate()));
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const agents = Array.from({ length: WORKERS }, (_, i) => `agent-${i}`);
  // Every fifth task is already assigned to one of the racers: only that one may win it.
  const preassigned = (round: number) => (round % 5 === 4 ? agents[round % WORKERS] ?? null : null);
  const tasks = Array.from({ length: TASKS }, (_, round) =>
    board.create({ title: `race ${round}`, teamId: 'team-race', assigneeAgentId: preassigned(round) }),
  );
  const taskIds = tasks.map((x) => x.id);

  const signal = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  const go = new Int32Array(signal);
  for (const agentId of agents) {
    const data: ClaimWorkerData = { dbPath, agentId, taskIds, signal };
    const { url, data: launchData } = workerLaunch(entry, data);
    workers.push(new Worker(url, { workerData: launchData }));
  }
  const box = mailbox(workers);
  const isReady = (round: number) => (m: ClaimWorkerMessage): m is Extract<ClaimWorkerMessage, { type: 'ready' }> => m.type === 'ready' && m.round === round;
  const isClaiming = (round: number) => (m: ClaimWorkerMessage): m is Extract<ClaimWorkerMessage, { type: 'claiming' }> => m.type === 'claiming' && m.round === round;
  const isResult = (round: number) => (m: ClaimWorkerMessage): m is Result => m.type === 'result' && m.round === round;

  const rowOf = db.prepare('SELECT status, assignee_agent_id AS assignee, claimed_at AS claimedAt FROM tasks WHERE id = ?');
  const claimsOf = db.prepare("SELECT agent_id AS agentId, team_id AS teamId FROM events WHERE kind = 'task_claimed' AND task_id = ?");

  for (const [round, taskId] of taskIds.entries()) {
    // Everyone is parked on the signal; release them together. On odd rounds
    // this connection holds the write lock until every worker has said it is
    // claiming (no guessed hold time), so that every claim has done whatever
    // it does before the lock and must queue on busy_timeout.
    await box.take(WORKERS, isReady(round));
    const holdLock = round % 2 === 1;
    if (holdLock) db.exec('BEGIN IMMEDIATE');
    Atomics.store(go, 0, round + 1);
    Atomics.notify(go, 0);
    await box.take(WORKERS, isClaiming(round));
    if (holdLock) db.exec('ROLLBACK');
    const results = await box.take(WORKERS, isResult(round));

    const where = `round ${round}`;
    const failures = results.filter((r) => !r.ok && (!r.domain || r.kind !== 'conflict'));
    assert.deepEqual(failures, [], `${where}: every loss is a domain conflict (no SQLITE_BUSY or other error)`);
    const winners = results.filter((r) => r.ok);
    assert.equal(winners.length, 1, `${where}: exactly one winner among ${JSON.stringify(results)}`);
    const winner = winners[0] as Result;
    assert.equal(winner.assignee, winner.agentId, where);
    assert.equal(winner.status, 'in_progress', where);
    const pre = preassigned(round);
    if (pre !== null) assert.equal(winner.agentId, pre, `${where}: the pre-assigned agent wins`);
    const allowed = pre === null ? ['task already claimed'] : ['task already claimed', 'task is assigned to another agent'];
    for (const r of results.filter((x) => !x.ok)) assert.ok(allowed.includes(r.message ?? ''), `${where}: ${String(r.message)}`);

    const row = rowOf.get(taskId) as { status: string; assignee: string; claimedAt: number | null };
    assert.deepEqual([row.status, row.assignee], ['in_progress', winner.agentId], where);
    assert.ok(row.claimedAt !== null, where);
    assert.deepEqual(claimsOf.all(taskId), [{ agentId: winner.agentId, teamId: 'team-race' }], `${where}: one task_claimed event`);
  }

  await box.take(WORKERS, (m): m is Extract<ClaimWorkerMessage, { type: 'done' }> => m.type === 'done');
  assert.equal(db.prepare("SELECT COUNT(*) FROM events WHERE kind = 'task_claimed'").pluck().get(), TASKS);
  assert.equal(db.prepare("SELECT COUNT(*) FROM tasks WHERE status = 'in_progress'").pluck().get(), TASKS);
});
