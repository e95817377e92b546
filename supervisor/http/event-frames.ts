// How an event row becomes an SSE frame: its data masked again on the way
// out (rows written by other processes are not trusted to be masked).
import type { EventRow } from '../../shared/events/types.ts';
import { maskJsonText } from '../../shared/redact.ts';
import { frameRow } from './sse.ts';

export function eventFrame(row: EventRow): string {
  return frameRow(row.seq, JSON.stringify({ ...row, data: maskJsonText(row.data) }));
}
