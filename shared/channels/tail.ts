// Contract of the tail worker: it reads new rows of the event log and of the
// chat-messages table (one query per table per tick) and posts them to the
// supervisor, which fans them out to open streams. The rows' schemas live
// beside their tables.
import { z } from 'zod';
import { ChatRowSchema } from '../db/chat-messages.ts';
import { EventRowSchema } from '../events/types.ts';
import { defineContract } from './contract.ts';

const Empty = z.object({}).strict();

export const tailContract = defineContract({
  name: 'tail',
  requests: {
    /** Poll now instead of waiting for the next tick (a gap was seen at commit time). */
    poke: { payload: Empty, result: z.object({ queries: z.number().int() }) },
    /** Ticks, row queries, and WAL checkpoints run (the tail worker checkpoints for the team-chat worker). */
    stats: { payload: Empty, result: z.object({ ticks: z.number().int(), queries: z.number().int(), checkpoints: z.number().int() }) },
    /** Close the database and stop polling; the worker then exits. */
    stop: { payload: Empty, result: Empty },
  },
  events: {
    ready: z.object({ eventsCursor: z.number().int(), chatCursor: z.number().int() }),
    events: z.object({ rows: z.array(EventRowSchema) }),
    chat: z.object({ rows: z.array(ChatRowSchema) }),
  },
});

/** Index of each table's delivered-watermark in the shared Float64Array. */
export const WATERMARK = { events: 0, chat: 1 } as const;

export const TailWorkerData = z.object({
  dbPath: z.string(),
  intervalMs: z.number().int().positive(),
  batchSize: z.number().int().positive(),
  /** Float64Array(2) over a SharedArrayBuffer: the highest row already delivered per table. */
  watermarks: z.instanceof(SharedArrayBuffer),
});
export type TailWorkerData = z.infer<typeof TailWorkerData>;
