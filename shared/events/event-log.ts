// appendEvent(): the one way an orchestration event enters the log. Data is
// masked before it is stored: with the credential patterns always, and with
// the exact secret values in play (gateway token, access token, master key,
// provider keys) when the writer knows them, i.e. was given the redactor.
// mask_version records the pattern rules (MASK_RULES_VERSION) either way: a
// read can re-apply patterns to rows stored under other rules, but it cannot
// know which exact values were in play when a row was written (tokens
// change), so the exact pass belongs to the write. A failed write is logged with its kind and
// rethrown (never silently dropped), so a board mutation in the same
// transaction rolls back with it. Committed rows are offered to `onCommitted`
// (the supervisor's live fan-out) right after commit.
import { uuidv7 } from '../ids.ts';
import type { Logger } from '../log.ts';
import { MASK_RULES_VERSION, maskData, type Redactor } from '../redact.ts';
import type { Db } from '../db/open.ts';
import type { Tx } from '../db/tx.ts';
import { EventKind } from './kinds.ts';
import type { EventInput, EventRow } from './types.ts';

export interface AppendOptions {
  /**
   * Refuse the whole call (nothing written) when one row's masked data is
   * longer than this many UTF-8 bytes: DataTooLargeError.
   */
  maxDataBytes?: number;
}

export interface EventLog {
  append(input: EventInput): EventRow;
  appendMany(inputs: readonly EventInput[], opts?: AppendOptions): EventRow[];
  maxSeq(): number;
}

/** A row's data is over AppendOptions.maxDataBytes; nothing of the call was written. */
export class DataTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`event data larger than ${limit} bytes`);
    this.name = 'DataTooLargeError';
  }
}

export interface EventLogDeps {
  db: Db;
  tx: Tx;
  logger: Logger;
  onCommitted?: (rows: EventRow[]) => void;
  now?: () => number;
  /**
   * The exact-secret redactor, wherever the writer has one (the supervisor,
   * the ingest worker, the MCP stdio binaries). Without it only the patterns
   * apply: the eval trials' scratch databases and the benchmarks, which hold
   * no secret of svc's, and tests.
   */
  redactor?: Redactor;
}

/** Serialises and masks an event's data; anything but a plain object or array becomes `{}`. */
export function maskedDataText(data: unknown, redactor?: Redactor): string {
  if (data === undefined || data === null || typeof data !== 'object') return '{}';
  return JSON.stringify(redactor ? redactor.deep(data) : maskData(data));
}

/** Throws DataTooLargeError when a text is over `limit` UTF-8 bytes. */
function checkSizes(texts: readonly string[], limit: number): void {
  for (const t of texts) {
    // A UTF-16 unit is at most 3 UTF-8 bytes: most texts need no count.
    if (t.length * 3 > limit && Buffer.byteLength(t) > limit) throw new DataTooLargeError(limit);
  }
}

export function createEventLog({ db, tx, logger, onCommitted, now = Date.now, redactor }: EventLogDeps): EventLog {
  const insert = db.prepare(
    `INSERT INTO events (id, ts, kind, team_id, task_id, agent_id, runtime, trace_id, span_id,
       parent_span_id, correlation_id, data, tenant_id, created_at, mask_version)
     VALUES (@id, @ts, @kind, @teamId, @taskId, @agentId, @runtime, @traceId, @spanId,
       @parentSpanId, @correlationId, @data, @tenantId, @createdAt, ${MASK_RULES_VERSION})`,
  );
  const maxSeqStmt = db.prepare('SELECT COALESCE(MAX(seq), 0) FROM events').pluck();

  // The row is built from what was inserted plus the new rowid rather than
  // read back with RETURNING: that read-back cost 40 % of a 200-event ingest.
  const insertOne = (input: EventInput, data: string): EventRow => {
    const kind = EventKind.parse(input.kind);
    const t = now();
    const row: Omit<EventRow, 'seq'> = {
      id: input.id ?? uuidv7(t),
      ts: typeof input.ts === 'number' && Number.isFinite(input.ts) ? Math.trunc(input.ts) : t,
      kind,
      teamId: input.teamId ?? null,
      taskId: input.taskId ?? null,
      agentId: input.agentId ?? null,
      runtime: input.runtime ?? null,
      traceId: input.traceId ?? null,
      spanId: input.spanId ?? null,
      parentSpanId: input.parentSpanId ?? null,
      correlationId: input.correlationId ?? null,
      data,
      tenantId: input.tenantId ?? null,
      createdAt: t,
    };
    const { lastInsertRowid } = insert.run(row);
    return { seq: Number(lastInsertRowid), ...row };
  };

  const appendMany = (inputs: readonly EventInput[], opts: AppendOptions = {}): EventRow[] => {
    if (inputs.length === 0) return [];
    try {
      // Masked before anything is written: a size refusal writes nothing, and
      // a batch's masking walk does not hold the write lock.
      const texts = inputs.map((i) => maskedDataText(i.data, redactor));
      if (opts.maxDataBytes !== undefined) checkSizes(texts, opts.maxDataBytes);
      // One row is one INSERT, atomic on its own: no savepoint around it (two
      // statements more on every board mutation). Several go in one transaction.
      const rows =
        inputs.length === 1
          ? [insertOne(inputs[0] as EventInput, texts[0] as string)]
          : tx.run(() => inputs.map((input, i) => insertOne(input, texts[i] as string)));
      if (onCommitted) tx.afterCommit(() => onCommitted(rows));
      return rows;
    } catch (err) {
      // A refused size is the caller's answer to give, not a failed write.
      if (!(err instanceof DataTooLargeError)) {
        logger.error({ err, kinds: [...new Set(inputs.map((i) => i.kind))], count: inputs.length }, 'event log write failed');
      }
      throw err;
    }
  };

  return {
    append: (input) => appendMany([input])[0] as EventRow,
    appendMany,
    maxSeq: () => maxSeqStmt.get() as number,
  };
}
