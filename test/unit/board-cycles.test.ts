// Property tests of dependency-cycle refusal (shared/board/cycles.ts through
// the real board on a temporary SQLite file): for random sequences of link
// and unlink attempts among N tasks, task_dependencies stays acyclic, and a
// link is refused exactly when a reference depth-first search says it would
// close a cycle. FC_SEED=<n> replays a reported failure (test/helpers/fc.ts).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc } from '../helpers/fc.ts';
import { createBoard, type Board } from '../../shared/board/board.ts';
import { createCycleCheck } from '../../shared/board/cycles.ts';
import { openDatabase, type Db } from '../../shared/db/open.ts';
import { createTx } from '../../shared/db/tx.ts';
import { DomainError } from '../../shared/errors.ts';
import { createEventLog } from '../../shared/events/event-log.ts';
import { createLogger } from '../../shared/log.ts';

function setup(t: TestContext): { db: Db; board: Board } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-board-cycles-'));
  const db = openDatabase(join(dir, 'svc.db'));
  t.after(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const logger = createLogger({ level: 'info' }, { write: () => undefined });
  const tx = createTx(db, (err) => {
    throw err;
  });
  return { db, board: createBoard({ db, tx, eventLog: createEventLog({ db, tx, logger }) }) };
}

type Graph = Map<number, Set<number>>;

/** Reference: is `to` reachable from `from` along "waits for" edges? */
function reachable(g: Graph, from: number, to: number): boolean {
  const seen = new Set<number>();
  const visit = (n: number): boolean => {
    if (n === to) return true;
    if (seen.has(n)) return false;
    seen.add(n);
    for (const m of g.get(n) ?? []) if (visit(m)) return true;
    return false;
  };
  return visit(from);
}

/** Reference: does the graph contain a cycle? (three-colour DFS) */
function hasCycle(g: Graph, nodes: number): boolean {
  const colour = new Array<0 | 1 | 2>(nodes).fill(0);
  const visit = (n: number): boolean => {
    colour[n] = 1;
    for (const m of g.get(n) ?? []) {
      if (colour[m] === 1) return true;
      if (colour[m] === 0 && visit(m)) return true;
    }
    colour[n] = 2;
    return false;
  };
  for (let n = 0; n < nodes; n++) if (colour[n] === 0 && visit(n)) return true;
  return false;
}

const edgesOf = (g: Graph) => [...g].flatMap(([from, tos]) => [...tos].map((to) => `${from}->${to}`)).sort();

type Attempt = { op: 'link' | 'unlink'; from: number; to: number };

const scenario = fc.integer({ min: 3, max: 8 }).chain((n) =>
  fc.tuple(
    fc.constant(n),
    fc.array(
      fc.record({
        op: fc.constantFrom<Attempt['op']>('link', 'link', 'link', 'link', 'unlink'),
        from: fc.nat({ max: n - 1 }),
        to: fc.nat({ max: n - 1 }),
      }),
      { minLength: 10, maxLength: 80, size: 'medium' },
    ),
  ),
);

void test('Board cycles: the stored dependency graph stays acyclic and a link is refused exactly when it would close a cycle', (t) => {
  const { db, board } = setup(t);
  const stored = db.prepare(
    'SELECT task_id AS taskId, depends_on_task_id AS dep FROM task_dependencies WHERE task_id IN (SELECT value FROM json_each(?))',
  );
  const eventCount = db.prepare("SELECT COUNT(*) FROM events WHERE kind = 'dep_linked'").pluck();
  const stats = { linked: 0, duplicate: 0, self: 0, cycle: 0, unlinked: 0 };

  fc.assert(
    fc.property(scenario, ([n, attempts]) => {
      const ids = Array.from({ length: n }, (_, i) => board.create({ title: `t${i}` }).id);
      const ix = new Map(ids.map((id, i) => [id, i]));
      const model: Graph = new Map();
      const readStored = (): Graph => {
        const g: Graph = new Map();
        for (const r of stored.all(JSON.stringify(ids)) as Array<{ taskId: string; dep: string }>) {
          const from = ix.get(r.taskId) as number;
          if (!g.has(from)) g.set(from, new Set());
          g.get(from)?.add(ix.get(r.dep) as number);
        }
        return g;
      };

      for (const [step, a] of attempts.entries()) {
        const where = `step ${step}: ${a.op} ${a.from} -> ${a.to}`;
        const events = eventCount.get() as number;
        const from = ids[a.from] as string;
        const to = ids[a.to] as string;
        const exists = model.get(a.from)?.has(a.to) ?? false;
        let expectEvent = false;
        if (a.op === 'unlink') {
          expectEvent = exists;
          const r = board.unlinkDependency(from, to);
          assert.equal(r.removed, exists, where);
          model.get(a.from)?.delete(a.to);
          if (exists) stats.unlinked++;
        } else {
          const closes = a.from === a.to || reachable(model, a.to, a.from);
          let refusal: string | null = null;
          let created: boolean | null = null;
          try {
            created = board.linkDependency(from, to).created;
          } catch (err) {
            if (!(err instanceof DomainError) || err.kind !== 'conflict') throw err;
            refusal = err.message;
          }
          if (closes) {
            assert.equal(refusal, a.from === a.to ? 'a task cannot depend on itself' : 'dependency would create a cycle', where);
            if (a.from === a.to) stats.self++;
            else stats.cycle++;
          } else {
            assert.equal(refusal, null, where);
            assert.equal(created, !exists, `${where}: created`);
            if (!model.has(a.from)) model.set(a.from, new Set());
            model.get(a.from)?.add(a.to);
            expectEvent = !exists;
            if (exists) stats.duplicate++;
            else stats.linked++;
          }
        }
        const g = readStored();
        assert.deepEqual(edgesOf(g), edgesOf(model), `${where}: stored edges`);
        assert.equal(hasCycle(g, n), false, `${where}: the stored graph has a cycle`);
        assert.equal((eventCount.get() as number) - events, expectEvent ? 1 : 0, `${where}: dep_linked events`);
      }
    }),
    { numRuns: 200 },
  );
  t.diagnostic(`coverage: ${JSON.stringify(stats)}`);
  assert.ok(stats.linked > 600 && stats.cycle > 600 && stats.self > 300 && stats.duplicate > 300 && stats.unlinked > 100, JSON.stringify(stats));
});

void test('Board cycles: the cycle check agrees with the reference on long chains and diamonds', (t) => {
  const { db, board } = setup(t);
  const check = createCycleCheck(db);
  // A chain t0 <- t1 <- ... <- t39 plus diamonds: every back edge closes a cycle, every forward edge does not.
  const ids = Array.from({ length: 40 }, (_, i) => board.create({ title: `c${i}` }).id);
  for (let i = 1; i < ids.length; i++) board.linkDependency(ids[i] as string, ids[i - 1] as string);
  for (let i = 2; i < ids.length; i += 3) board.linkDependency(ids[i] as string, ids[i - 2] as string);
  fc.assert(
    fc.property(fc.nat({ max: 39 }), fc.nat({ max: 39 }), (a, b) => {
      // a waits for b closes a cycle exactly when b already (transitively) waits for a, or a === b.
      assert.equal(check(ids[a] as string, ids[b] as string), b >= a);
    }),
    { numRuns: 300 },
  );
  assert.throws(() => board.linkDependency(ids[0] as string, ids[39] as string), /dependency would create a cycle/);
});
