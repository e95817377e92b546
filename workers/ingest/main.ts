// The ingest worker: parses client-ingested batches from their bytes and
// appends them, and writes model calls' records, through the project's
// event log (masking with the exact secrets the supervisor sends along,
// UUIDv7 ids, one transaction per batch, idempotency keys) on its own
// connection. See shared/channels/ingest.ts for
// why it is a worker.
import { parentPort, workerData } from 'node:worker_threads';
import { pino } from 'pino';
import { IngestWorkerData, ingestContract } from '../../shared/channels/ingest.ts';
import { serveChannel } from '../../shared/channels/server.ts';
import { openDatabase } from '../../shared/db/open.ts';
import { createTx } from '../../shared/db/tx.ts';
import { createEventLog } from '../../shared/events/event-log.ts';
import { createIngestWriter } from '../../shared/events/ingest.ts';
import { createRedactor } from '../../shared/redact.ts';
import { createAgentStore } from '../../shared/agents/store.ts';
import { createCostRecords } from '../../shared/costs/index.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import { writeCallRecords } from '../../shared/model-proxy/records.ts';

if (!parentPort) throw new Error('ingest worker must run in a worker thread');
const port = parentPort;
const data = IngestWorkerData.parse(workerData);
// A failed write goes back to the supervisor as an error value and is logged
// there, through svc's redacting logger; this thread logs nothing itself.
const logger = pino({ level: 'silent' });
const db = openDatabase(data.dbPath, { migrate: false });
const tx = createTx(db, (err) => logger.error({ err }, 'after-commit hook failed'));
// The secrets in play as of the batch being written (set per request below).
let secrets: readonly string[] = [];
const eventLog = createEventLog({ db, tx, logger, redactor: createRedactor(() => secrets) });
const writer = createIngestWriter({ db, tx, eventLog });
const costs = createCostRecords({ db, tx, agents: createAgentStore(db, tx, createSettingsTable(db)) });

const stats = { batches: 0, events: 0, badBodies: 0, calls: 0 };

const server = serveChannel(ingestContract, port, {
  appendBody: (p) => {
    secrets = p.secrets;
    const r = writer.appendBody(p.body, p.now, p.key);
    if ('badJson' in r || 'tooLarge' in r) stats.badBodies++;
    else if ('rows' in r && r.rows.length > 0) {
      stats.batches++;
      stats.events += r.rows.length;
    }
    return r;
  },
  recordCalls: (p) => {
    secrets = p.secrets;
    const rows = writeCallRecords({ tx, eventLog, costs }, p.batch);
    stats.calls += p.batch.length;
    return { rows };
  },
  stats: () => stats,
  stop: () => {
    server.dispose();
    db.close();
    setImmediate(() => port.close());
    return {};
  },
});
server.emit('ready', {});
