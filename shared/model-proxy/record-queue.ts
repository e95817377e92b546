// Where the model endpoint's call records go (records.ts builds them): to a
// writer off the endpoint's thread (the ingest worker), gathered per turn of
// the event loop into one message and one transaction there; on this thread,
// at once, when that writer does not serve (no workers, or one restarting)
// or when the records carry a budget transition (the budget views and the
// halt read those right away). A batch the writer did not take is written
// here; one it failed is logged, never written twice.
import type { Logger } from '../log.ts';
import type { CallRecords, CallRecordSink } from './records.ts';

export interface RecordQueueDeps {
  /** Whether the off-thread writer takes a batch now. */
  serving(): boolean;
  /** Sends a batch to the off-thread writer; `unavailable`: nothing was written. */
  send(batch: CallRecords[]): Promise<'written' | 'unavailable'>;
  /** Writes a batch on this thread (inside a transaction already open, when there is one). */
  here(batch: CallRecords[]): void;
  /** Runs a callback once the transaction open on this thread commits (at once when none is). */
  afterCommit(cb: () => void): void;
  logger: Pick<Logger, 'error'>;
}

export interface RecordQueue {
  sink: CallRecordSink;
  /** Resolves once every batch handed over so far is written (or its failure logged). */
  drained(): Promise<void>;
}

export function createRecordQueue(deps: RecordQueueDeps): RecordQueue {
  let pending: CallRecords[] = [];
  let scheduled = false;
  const inFlight = new Set<Promise<void>>();

  const writeHere = (batch: CallRecords[]): void => {
    try {
      deps.here(batch);
    } catch (err) {
      deps.logger.error({ err, calls: batch.length }, "model endpoint: writing calls' records failed; their rows and ledger stand");
    }
  };

  const flush = (): void => {
    scheduled = false;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    const sent = deps.send(batch).then(
      (r) => {
        if (r === 'unavailable') writeHere(batch);
      },
      (err: unknown) => deps.logger.error({ err, calls: batch.length }, "model endpoint: the ingest worker failed calls' records; their rows and ledger stand"),
    );
    inFlight.add(sent);
    void sent.finally(() => inFlight.delete(sent));
  };

  const enqueue = (records: CallRecords): void => {
    pending.push(records);
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };

  return {
    sink(records, { now }) {
      if (now) return writeHere([records]);
      // Not before the settlement they describe has committed: a rolled-back settlement leaves no records.
      deps.afterCommit(() => (deps.serving() ? enqueue(records) : writeHere([records])));
    },
    async drained() {
      if (scheduled) flush();
      await Promise.all([...inFlight]);
    },
  };
}
