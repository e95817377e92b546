// Group commit: writes queued in one turn of the event loop commit together,
// in one transaction, on the next turn. Each write runs in its own savepoint,
// so it is atomic on its own and one that throws undoes only itself (its
// promise rejects; the others commit). A commit is the dearest part of a
// small write (it appends every page the transaction touched to the WAL):
// the model endpoint's reservations and settlements, many per turn under
// load, share one.
import type { Tx } from './tx.ts';

export interface WriteBatch {
  /** Runs fn in the next group transaction; resolves with its result once that has committed. */
  run<T>(fn: () => T): Promise<T>;
  /**
   * A write whose caller waits on it (a model call's reservation): run at
   * once in a transaction of its own when no batch is waiting (a lone write
   * gains nothing from a turn's wait for company, and its commit is short),
   * else in the waiting batch, whose commit is a turn away at most. The
   * result comes back as it is, or as a promise when it joined a batch.
   */
  runEager<T>(fn: () => T): T | Promise<T>;
}

interface Queued {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

export function createWriteBatch(tx: Tx, schedule: (flush: () => void) => void = setImmediate): WriteBatch {
  let queue: Queued[] = [];
  const flush = () => {
    const batch = queue;
    queue = [];
    let outcomes: Outcome[];
    try {
      outcomes = tx.run(() =>
        batch.map((q): Outcome => {
          try {
            return { ok: true, value: tx.run(q.fn) };
          } catch (err) {
            return { ok: false, err };
          }
        }),
      );
    } catch (err) {
      // The commit itself failed (a full disk): nothing of the batch was written.
      for (const q of batch) q.reject(err);
      return;
    }
    batch.forEach((q, i) => {
      const o = outcomes[i] as Outcome;
      if (o.ok) q.resolve(o.value);
      else q.reject(o.err);
    });
  };
  const run = <T>(fn: () => T): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (queue.length === 0) schedule(flush);
      queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
    });
  return {
    run,
    runEager: <T>(fn: () => T): T | Promise<T> => (queue.length === 0 ? tx.run(fn) : run(fn)),
  };
}
