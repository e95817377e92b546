// Transactions with after-commit hooks. Rows that svc itself commits are
// handed to the live fan-out at commit time (not on the next 750 ms poll), but
// only once the transaction has really committed: a hook queued inside a
// transaction runs after the outermost commit and is dropped on rollback.
import type { Db } from './open.ts';

export interface Tx {
  /** Runs fn in an IMMEDIATE transaction (nested calls become savepoints). */
  run<T>(fn: () => T): T;
  /** Runs cb after the current transaction commits, or now when none is open. */
  afterCommit(cb: () => void): void;
}

export function createTx(db: Db, onHookError: (err: unknown) => void): Tx {
  const stack: Array<Array<() => void>> = [];
  // The transaction statements are prepared once: db.transaction(fn) builds a
  // new wrapper per call, which cost ~10 % of a board claim in profiles.
  // IMMEDIATE: take the write lock at BEGIN. A deferred transaction that
  // reads and then writes fails at once with SQLITE_BUSY_SNAPSHOT when
  // another connection (a worker thread, an MCP binary) committed in
  // between; busy_timeout cannot retry that.
  const outer = { begin: db.prepare('BEGIN IMMEDIATE'), commit: db.prepare('COMMIT'), undo: db.prepare('ROLLBACK') };
  // Nested calls are savepoints (a name can be stacked; RELEASE and ROLLBACK TO
  // act on the innermost), so a caught inner failure undoes only its own part.
  const nested = { begin: db.prepare('SAVEPOINT svc_tx'), commit: db.prepare('RELEASE svc_tx'), undo: db.prepare('ROLLBACK TO svc_tx') };
  const transact = <T>(fn: () => T): T => {
    const s = db.inTransaction ? nested : outer;
    s.begin.run();
    try {
      const result = fn();
      if (result instanceof Promise) throw new TypeError('Tx.run() cannot take an async function: the transaction would commit before it ends');
      s.commit.run();
      return result;
    } catch (err) {
      // SQLite may already have rolled the whole transaction back (e.g. after
      // SQLITE_FULL); then there is nothing left to undo.
      if (db.inTransaction) {
        s.undo.run();
        if (s === nested) s.commit.run();
      }
      throw err;
    }
  };
  const runHooks = (hooks: Array<() => void>) => {
    for (const h of hooks) {
      try {
        h();
      } catch (err) {
        // A failing subscriber must not undo or hide a commit that happened.
        onHookError(err);
      }
    }
  };
  return {
    run<T>(fn: () => T): T {
      // Opened inside a raw db.transaction() we cannot see: its commit is not ours to announce.
      const insideForeignTx = stack.length === 0 && db.inTransaction;
      const hooks: Array<() => void> = [];
      stack.push(hooks);
      let result: T;
      try {
        result = transact(fn);
      } finally {
        stack.pop();
      }
      const parent = stack[stack.length - 1];
      if (parent) parent.push(...hooks);
      else if (!insideForeignTx) runHooks(hooks);
      return result;
    },
    afterCommit(cb) {
      const top = stack[stack.length - 1];
      if (top) top.push(cb);
      else if (!db.inTransaction) runHooks([cb]);
      // Inside a raw db.transaction() that did not go through run(): we cannot
      // see its commit, so we do not publish; the tail worker delivers the row.
    },
  };
}
