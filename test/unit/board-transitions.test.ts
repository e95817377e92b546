// Property tests of the board's status rules (shared/board/) on a real
// temporary SQLite file: random sequences of status PATCHes, field edits,
// claims and dependency links/unlinks are applied to a real board and to a
// small model of the rules written out here. The board must agree with the
// model on every accept and refusal, the invariants must hold after every
// step, and each accepted mutation must leave exactly one event of its kind
// while each refusal leaves none. FC_SEED=<n> replays a reported failure (test/helpers/fc.ts).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc } from '../helpers/fc.ts';
import { createBoard, type Board } from '../../shared/board/board.ts';
import { TRANSITIONS } from '../../shared/board/transitions.ts';
import { TASK_STATUSES, type Task, type TaskStatus } from '../../shared/board/types.ts';
import { openDatabase, type Db } from '../../shared/db/open.ts';
import { createTx } from '../../shared/db/tx.ts';
import { DomainError } from '../../shared/errors.ts';
import { createEventLog } from '../../shared/events/event-log.ts';
import type { EventRow } from '../../shared/events/types.ts';
import { createLogger } from '../../shared/log.ts';

function setup(t: TestContext): { db: Db; board: Board } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-board-prop-'));
  const db = openDatabase(join(dir, 'svc.db'));
  t.after(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const logger = createLogger({ level: 'info' }, { write: () => undefined });
  const tx = createTx(db, (err) => {
    throw err;
  });
  const eventLog = createEventLog({ db, tx, logger });
  return { db, board: createBoard({ db, tx, eventLog }) };
}

// The rules as the board is meant to apply them, stated independently of shared/board/transitions.ts.
const ALLOWED: Record<TaskStatus, readonly TaskStatus[]> = {
  todo: ['in_progress', 'blocked', 'cancelled'],
  in_progress: ['todo', 'in_review', 'done', 'blocked', 'cancelled'],
  in_review: ['in_progress', 'done', 'cancelled'],
  blocked: ['todo', 'in_progress', 'cancelled'],
  done: [],
  cancelled: ['todo'],
};

const N_TASKS = 5;
const AGENTS = ['amy', 'bo', 'cy'] as const;

type Op =
  | { op: 'patch'; task: number; status: TaskStatus; assignee: string | null | undefined }
  | { op: 'rename'; task: number; title: string }
  | { op: 'claim'; task: number; agent: string }
  | { op: 'link'; task: number; dep: number }
  | { op: 'unlink'; task: number; dep: number };

const taskIx = fc.nat({ max: N_TASKS - 1 });
const agent = fc.constantFrom(...AGENTS);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({
    op: fc.constant('patch' as const), task: taskIx,
    // Every status, with the ones that lead somewhere drawn more often.
    status: fc.constantFrom<TaskStatus>(...TASK_STATUSES, 'in_progress', 'done', 'done'),
    assignee: fc.oneof(fc.constant(undefined), fc.constant(null), agent),
  }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('rename' as const), task: taskIx, title: fc.constantFrom('a', 'b') }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('claim' as const), task: taskIx, agent }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('link' as const), task: taskIx, dep: taskIx }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('unlink' as const), task: taskIx, dep: taskIx }) },
);
const initialArb = fc.array(fc.oneof(fc.constant(null), agent), { minLength: N_TASKS, maxLength: N_TASKS });

interface ModelTask {
  status: TaskStatus;
  assignee: string | null;
  title: string;
  deps: Set<number>;
}

type Expected =
  | { ok: true; event: 'status_changed' | 'task_claimed' | 'dep_linked' | null; next: ModelTask }
  | { ok: false; error: string };

const refuse = (error: string): Expected => ({ ok: false, error });

function reaches(model: ModelTask[], from: number, to: number): boolean {
  const seen = new Set<number>();
  const stack = [from];
  while (stack.length > 0) {
    const n = stack.pop() as number;
    if (n === to) return true;
    if (seen.has(n)) continue;
    seen.add(n);
    stack.push(...(model[n] as ModelTask).deps);
  }
  return false;
}

function expect(model: ModelTask[], op: Op): Expected {
  const cur = model[op.task] as ModelTask;
  const copy = (): ModelTask => ({ ...cur, deps: new Set(cur.deps) });
  const blocked = [...cur.deps].some((d) => (model[d] as ModelTask).status !== 'done');
  switch (op.op) {
    case 'patch': {
      const assignee = op.assignee === undefined ? cur.assignee : op.assignee;
      if (op.status !== cur.status) {
        if (!ALLOWED[cur.status].includes(op.status)) return refuse(`cannot move a task from ${cur.status} to ${op.status}`);
      }
      if (op.status === 'in_progress' && assignee === null) return refuse('a task needs an assignee to be in progress');
      if (op.status === 'in_progress' && cur.status !== 'in_progress' && blocked) return refuse('task is blocked by unfinished dependencies');
      const changed = op.status !== cur.status || assignee !== cur.assignee;
      return { ok: true, event: changed ? 'status_changed' : null, next: { ...copy(), status: op.status, assignee } };
    }
    case 'rename':
      return { ok: true, event: op.title === cur.title ? null : 'status_changed', next: { ...copy(), title: op.title } };
    case 'claim':
      if (cur.status === 'in_progress' || cur.status === 'in_review') return refuse('task already claimed');
      if (cur.status !== 'todo') return refuse(`cannot claim a task in status ${cur.status}`);
      if (cur.assignee !== null && cur.assignee !== op.agent) return refuse('task is assigned to another agent');
      if (blocked) return refuse('task is blocked by unfinished dependencies');
      return { ok: true, event: 'task_claimed', next: { ...copy(), status: 'in_progress', assignee: op.agent } };
    case 'link': {
      if (op.task === op.dep) return refuse('a task cannot depend on itself');
      if (reaches(model, op.dep, op.task)) return refuse('dependency would create a cycle');
      const next = copy();
      next.deps.add(op.dep);
      return { ok: true, event: cur.deps.has(op.dep) ? null : 'dep_linked', next };
    }
    case 'unlink': {
      const next = copy();
      next.deps.delete(op.dep);
      return { ok: true, event: cur.deps.has(op.dep) ? 'dep_linked' : null, next };
    }
  }
}

type EventSeen = Pick<EventRow, 'seq' | 'kind' | 'taskId' | 'agentId' | 'data'>;

void test('Board transitions: random operations agree with the rules, keep the invariants and log exactly their events', (t) => {
  const { db, board } = setup(t);
  const taskRows = db.prepare(
    'SELECT id, status, assignee_agent_id AS assignee, claimed_at AS claimedAt, completed_at AS completedAt, updated_at AS updatedAt, title FROM tasks WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id',
  );
  const depRows = db.prepare('SELECT task_id AS taskId, depends_on_task_id AS dep FROM task_dependencies WHERE task_id IN (SELECT value FROM json_each(?))');
  const eventsAfter = db.prepare('SELECT seq, kind, task_id AS taskId, agent_id AS agentId, data FROM events WHERE seq > ? ORDER BY seq');
  const maxSeq = db.prepare('SELECT COALESCE(MAX(seq), 0) FROM events').pluck();
  const stats = { accepted: 0, refused: 0, enteredProgress: 0, done: 0 };

  fc.assert(
    fc.property(initialArb, fc.array(opArb, { minLength: 10, maxLength: 60 }), (initial, ops) => {
      const tasks: Task[] = initial.map((assignee, i) => board.create({ title: 'a', assigneeAgentId: assignee, teamId: `team-${i}` }));
      const ids = tasks.map((x) => x.id);
      const idsJson = JSON.stringify(ids);
      const ix = new Map(ids.map((id, i) => [id, i]));
      const model: ModelTask[] = initial.map((assignee) => ({ status: 'todo', assignee, title: 'a', deps: new Set() }));
      type Row = { id: string; status: TaskStatus; assignee: string | null; claimedAt: number | null; completedAt: number | null; updatedAt: number; title: string };
      const read = () => {
        const rows = new Map((taskRows.all(idsJson) as Row[]).map((r) => [r.id, r]));
        const deps = ids.map(() => new Set<number>());
        for (const d of depRows.all(idsJson) as Array<{ taskId: string; dep: string }>) {
          deps[ix.get(d.taskId) as number]?.add(ix.get(d.dep) as number);
        }
        return ids.map((id, i) => ({ row: rows.get(id) as Row, deps: deps[i] as Set<number> }));
      };

      for (const [step, op] of ops.entries()) {
        const where = `step ${step}: ${JSON.stringify(op)}`;
        const before = read();
        const seq = maxSeq.get() as number;
        const exp = expect(model, op);
        const id = ids[op.task] as string;
        let error: string | null = null;
        try {
          if (op.op === 'patch') board.update(id, { status: op.status, ...(op.assignee !== undefined ? { assigneeAgentId: op.assignee } : {}) });
          else if (op.op === 'rename') board.update(id, { title: op.title });
          else if (op.op === 'claim') board.claim(id, op.agent);
          else if (op.op === 'link') board.linkDependency(id, ids[op.dep] as string);
          else board.unlinkDependency(id, ids[op.dep] as string);
        } catch (err) {
          if (!(err instanceof DomainError) || err.kind !== 'conflict') throw err;
          error = err.message;
        }
        const after = read();
        const events = eventsAfter.all(seq) as EventSeen[];

        // The board and the model agree on the verdict.
        assert.equal(error, exp.ok ? null : exp.error, where);
        if (error !== null) {
          stats.refused++;
          assert.deepEqual(after, before, `${where}: a refusal changes no row`);
          assert.deepEqual(events, [], `${where}: a refusal logs nothing`);
          continue;
        }
        stats.accepted++;
        const next = (exp as Extract<Expected, { ok: true }>).next;
        const evKind = (exp as Extract<Expected, { ok: true }>).event;
        model[op.task] = next;

        // Exactly one event of the right kind for the right task (none for a no-op).
        if (evKind === null) {
          assert.deepEqual(events, [], `${where}: a no-op logs nothing`);
          assert.deepEqual(after, before, `${where}: a no-op writes nothing`);
        } else {
          assert.equal(events.length, 1, `${where}: one event`);
          const ev = events[0] as EventSeen;
          assert.equal(ev.kind, evKind, where);
          assert.equal(ev.taskId, id, where);
          const data = JSON.parse(ev.data) as Record<string, unknown>;
          const b = (before[op.task] as (typeof before)[number]).row;
          const a = (after[op.task] as (typeof after)[number]).row;
          if (ev.kind === 'status_changed' || ev.kind === 'task_claimed') {
            assert.deepEqual([data.from, data.to], [b.status, a.status], where);
          }
          if (ev.kind === 'task_claimed') assert.equal(ev.agentId, (op as { agent: string }).agent, where);
          if (ev.kind === 'dep_linked') {
            assert.deepEqual(data, { dependsOnTaskId: ids[(op as { dep: number }).dep], linked: op.op === 'link' }, where);
          }
        }

        for (const [i, { row, deps }] of after.entries()) {
          const m = model[i] as ModelTask;
          const prev = (before[i] as (typeof before)[number]).row;
          const w = `${where}, task ${i}`;
          // The stored state is the model's state.
          assert.deepEqual([row.status, row.assignee, row.title, [...deps].sort()], [m.status, m.assignee, m.title, [...m.deps].sort()], w);
          // Only the task operated on changes.
          if (i !== op.task) assert.deepEqual(row, prev, w);
          // Every status change is in the table; done is never left; todo never jumps to done.
          if (prev.status !== row.status) {
            assert.ok(TRANSITIONS[prev.status].includes(row.status), `${w}: ${prev.status} -> ${row.status}`);
            assert.notDeepEqual([prev.status, row.status], ['todo', 'done'], w);
          }
          if (prev.status === 'done') assert.equal(row.status, 'done', `${w}: done is terminal`);
          // Entering in_progress: an assignee, and every dependency done at that moment.
          if (prev.status !== 'in_progress' && row.status === 'in_progress') {
            stats.enteredProgress++;
            for (const d of deps) assert.equal((after[d] as (typeof after)[number]).row.status, 'done', `${w}: dependency ${d} not done`);
            assert.ok(row.claimedAt !== null, `${w}: claimedAt`);
          }
          if (row.status === 'done' && prev.status !== 'done') stats.done++;
          if (row.status === 'in_progress') assert.notEqual(row.assignee, null, `${w}: in progress without an assignee`);
          assert.equal(row.completedAt !== null, row.status === 'done' || row.status === 'cancelled', `${w}: completedAt`);
        }
      }
    }),
    { numRuns: 200 },
  );
  t.diagnostic(`coverage: ${JSON.stringify(stats)}`);
  // The generator must actually reach the interesting states, or the properties above prove little.
  assert.ok(stats.accepted > 500 && stats.refused > 500, JSON.stringify(stats));
  assert.ok(stats.enteredProgress > 50 && stats.done > 20, JSON.stringify(stats));
});

void test('Board transitions: the table itself: done is terminal, todo cannot skip to review or done, cancelled only reopens', () => {
  assert.deepEqual(TRANSITIONS, ALLOWED);
  fc.assert(
    fc.property(fc.constantFrom(...TASK_STATUSES), fc.constantFrom(...TASK_STATUSES), (from, to) => {
      const allowed = TRANSITIONS[from].includes(to);
      if (from === 'done') assert.equal(allowed, false);
      if (from === 'todo' && (to === 'done' || to === 'in_review')) assert.equal(allowed, false);
      if (from === 'cancelled') assert.equal(allowed, to === 'todo');
      assert.equal(TRANSITIONS[from].includes(from), false, 'a same-status move is not a transition');
    }),
    { numRuns: 100 },
  );
});
