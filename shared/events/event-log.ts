// appendEvent(): the one way an orchestration event enters the log. Data is
// masked before it is stored; a failed write is logged with its kind and
// rethrown (never silently dropped), so a board mutation in the same
// transaction rolls back with it. Committed rows are offered to `onCommitted`
// (the supervisor's live fan-out) right after commit.
import { uuidv7 } from '../ids.ts';
import type { Logger } from '../log.ts';
import { MASK_RULES_VERSION, maskData } from '../redact.ts';
import type { Db } from '../db/open.ts';
import type { Tx } from '../db/tx.ts';
import { EventKind } from './kinds.ts';
import type { EventInput, EventRow } from './types.ts';

export interface EventLog {
  append(input: EventInput): EventRow;
  appendMany(inputs: readonly EventInput[]): EventRow[];
  maxSeq(): number;
}

export interface EventLogDeps {
  db: Db;
  tx: Tx;
  logger: Logger;
  onCommitted?: (rows: EventRow[]) => void;
  now?: () => number;
}

/** Serialises and masks an event's data; anything but a plain object or array becomes `{}`. */
export function maskedDataText(data: unknown): string {
  if (data === undefined || data === null || typeof data !== 'object') return '{}';
  return JSON.stringify(maskData(data));
}

export function createEventLog({ db, tx, logger, onCommitted, now = Date.now }: EventLogDeps): EventLog {
  const insert = db.prepare(
    `INSERT INTO events (id, ts, kind, team_id, task_id, agent_id, runtime, trace_id, span_id,
       parent_span_id, correlation_id, data, tenant_id, created_at, mask_version)
     VALUES (@id, @ts, @kind, @teamId, @taskId, @agentId, @runtime, @traceId, @spanId,
       @parentSpanId, @correlationId, @data, @tenantId, @createdAt, ${MASK_RULES_VERSION})`,
  );
  const maxSeqStmt = db.prepare('SELECT COALESCE(MAX(seq), 0) FROM events').pluck();

  // The row is built from what was inserted plus the new rowid rather than
  // read back with RETURNING: that read-back cost 40 % of a 200-event ingest.
  const insertOne = (input: EventInput): EventRow => {
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
      data: maskedDataText(input.data),
      tenantId: input.tenantId ?? null,
      createdAt: t,
    };
    const { lastInsertRowid } = insert.run(row);
    return { seq: Number(lastInsertRowid), ...row };
  };

  const appendMany = (inputs: readonly EventInput[]): EventRow[] => {
    if (inputs.length === 0) return [];
    try {
      // One row is one INSERT, atomic on its own: no savepoint around it (two
      // statements more on every board mutation). Several go in one transaction.
      const rows = inputs.length === 1 ? [insertOne(inputs[0] as EventInput)] : tx.run(() => inputs.map(insertOne));
      if (onCommitted) tx.afterCommit(() => onCommitted(rows));
      return rows;
    } catch (err) {
      logger.error({ err, kinds: [...new Set(inputs.map((i) => i.kind))], count: inputs.length }, 'event log write failed');
      throw err;
    }
  };

  return {
    append: (input) => appendMany([input])[0] as EventRow,
    appendMany,
    maxSeq: () => maxSeqStmt.get() as number,
  };
}
