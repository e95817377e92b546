// Appends client-ingested events: through the ingest worker when it runs (the
// front door's thread stays free to serve reads while a batch is written),
// in this thread when there is none (inject() tests, or the worker is down
// and not yet restarted: a request that never reached it cannot have been
// written, so writing here cannot duplicate it). Rows the worker committed
// are handed to the live fan-out here, as this thread's own commits are.
import { ingestContract } from '../shared/channels/ingest.ts';
import type { EventLog } from '../shared/events/event-log.ts';
import type { EventInput, EventRow } from '../shared/events/types.ts';
import type { Logger } from '../shared/log.ts';
import type { SvcPaths } from '../shared/paths.ts';
import type { StreamHub } from './stream-hub.ts';
import { workerEntry, type Service, type Supervisor } from './supervision.ts';

/** A batch normally takes milliseconds; this covers a long wait for the write lock (busy_timeout is 5 s). */
const APPEND_TIMEOUT_MS = 30_000;

export interface IngestService {
  append(events: EventInput[]): Promise<EventRow[]>;
}

export function createIngestService(opts: {
  supervisor: Supervisor;
  paths: SvcPaths;
  eventLog: EventLog;
  events: StreamHub<EventRow>;
  logger: Logger;
  startWorker: boolean;
}): IngestService {
  let worker: Service<typeof ingestContract> | null = null;
  // Batches go to the worker only once it said it serves: a request posted
  // earlier would wait behind the worker's start-up instead of being written.
  let ready = false;
  if (opts.startWorker) {
    worker = opts.supervisor.start({
      name: 'ingest',
      entry: workerEntry('../workers/ingest/main'),
      contract: ingestContract,
      stopMethod: 'stop',
      workerData: () => ({ dbPath: opts.paths.db }),
      onStart: (client) => {
        ready = false;
        client.on('ready', () => {
          ready = true;
        });
      },
    });
  }
  return {
    async append(events) {
      if (events.length === 0) return [];
      if (!worker || !ready || worker.status().state !== 'running') return opts.eventLog.appendMany(events);
      const r = await worker.request('append', { events }, { timeoutMs: APPEND_TIMEOUT_MS });
      if (r.ok) {
        opts.events.offerCommitted(r.result.rows);
        return r.result.rows;
      }
      // Not sent at all: nothing was written, so this thread writes it.
      if (r.error.code === 'WORKER_UNAVAILABLE') return opts.eventLog.appendMany(events);
      throw new Error(`ingest worker: ${r.error.code}: ${r.error.message}`);
    },
  };
}
