// Appends client-ingested batches, given as the request body's bytes:
// through the ingest worker when it runs (the front door's thread neither
// parses a batch nor waits on its write, and keeps serving reads meanwhile),
// in this thread when there is none (inject() tests, or the worker is down
// and not yet restarted: a request that never reached it cannot have been
// written, so writing here cannot duplicate it). Rows the worker committed
// are handed to the live fan-out here, as this thread's own commits are.
// Either way a batch is masked with the exact secrets in play (the worker is
// sent them with each batch) and its idempotency key, if any, is honoured.
// The model endpoint's call records go to the same worker (recordCalls); for
// them the caller writes on its own thread when the worker does not take
// them (shared/model-proxy/record-queue.ts).
import { ingestContract } from '../../shared/channels/ingest.ts';
import type { Db } from '../../shared/db/open.ts';
import type { Tx } from '../../shared/db/tx.ts';
import { createIngestWriter, type IngestOutcome } from '../../shared/events/ingest.ts';
import type { EventLog } from '../../shared/events/event-log.ts';
import type { EventRow } from '../../shared/events/types.ts';
import type { CallRecords } from '../../shared/model-proxy/records.ts';
import type { Logger } from '../../shared/log.ts';
import type { SvcPaths } from '../../shared/paths.ts';
import type { Redactor } from '../../shared/redact.ts';
import type { StreamHub } from './stream-hub.ts';
import { workerEntry, type Service, type Supervisor } from './supervision.ts';

/** A batch normally takes milliseconds; this covers a long wait for the write lock (busy_timeout is 5 s). */
const APPEND_TIMEOUT_MS = 30_000;

export interface IngestService {
  /** A JSON body's bytes: parsed, normalized (spec POST /api/obs/ingest) and appended, once per idempotency key. */
  appendBody(body: Uint8Array, now: number, key?: string): Promise<IngestOutcome>;
  /** Whether the worker serves now (a batch sent would be written there). */
  serving(): boolean;
  /**
   * Model calls' records, written by the worker; its committed event rows go
   * to the live fan-out here. `unavailable`: the worker did not take them
   * (not started, restarting): nothing was written, the caller writes them.
   */
  recordCalls(batch: CallRecords[]): Promise<'written' | 'unavailable'>;
  /** The worker's counters (health's `workers`), or null when it does not run or answer. */
  stats(): Promise<Record<string, number> | null>;
}

export function createIngestService(opts: {
  supervisor: Supervisor;
  paths: SvcPaths;
  db: Db;
  tx: Tx;
  /** This thread's event log: it must mask with `redactor` too. */
  eventLog: EventLog;
  redactor: Redactor;
  events: StreamHub<EventRow>;
  logger: Logger;
  startWorker: boolean;
}): IngestService {
  let worker: Service<typeof ingestContract> | null = null;
  // Batches go to the worker only once it said it serves: a request posted
  // earlier would wait behind the worker's start-up instead of being written.
  if (opts.startWorker) {
    worker = opts.supervisor.start({
      name: 'ingest',
      entry: workerEntry('ingest/main'),
      contract: ingestContract,
      stopMethod: 'stop',
      workerData: () => ({ dbPath: opts.paths.db }),
      ready: { event: 'ready' },
    });
  }
  /** This thread's own parse and write, for when the worker cannot take the batch. */
  const here = createIngestWriter({ db: opts.db, tx: opts.tx, eventLog: opts.eventLog });
  const appendHere = (body: Uint8Array, now: number, key?: string) => here.appendBody(body, now, key);

  const serving = (): boolean => worker !== null && worker.serving();

  return {
    serving,
    async recordCalls(batch) {
      if (!worker || !serving()) return 'unavailable';
      const r = await worker.request('recordCalls', { batch, secrets: opts.redactor.secrets() }, { timeoutMs: APPEND_TIMEOUT_MS });
      if (r.ok) {
        if (r.result.rows.length > 0) opts.events.offerCommitted(r.result.rows);
        return 'written';
      }
      if (r.error.code === 'WORKER_UNAVAILABLE') return 'unavailable';
      throw new Error(`ingest worker: ${r.error.code}: ${r.error.message}`);
    },
    async appendBody(body, now, key) {
      if (!worker || !serving()) return appendHere(body, now, key);
      const payload = { body, now, secrets: opts.redactor.secrets(), ...(key === undefined ? {} : { key }) };
      const r = await worker.request('appendBody', payload, { timeoutMs: APPEND_TIMEOUT_MS });
      if (r.ok) {
        if ('rows' in r.result && r.result.rows.length > 0) opts.events.offerCommitted(r.result.rows);
        return r.result;
      }
      // Not sent at all: nothing was written, so this thread writes it.
      if (r.error.code === 'WORKER_UNAVAILABLE') return appendHere(body, now, key);
      throw new Error(`ingest worker: ${r.error.code}: ${r.error.message}`);
    },
    async stats() {
      if (!worker || worker.status().state !== 'running') return null;
      const r = await worker.request('stats', {}, { timeoutMs: 1000 });
      return r.ok ? r.result : null;
    },
  };
}
