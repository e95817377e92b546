// OTLP export of spans built from the event log. (Being written: a no-op.)
import type { Config } from '../shared/config.ts';
import type { Logger } from '../shared/log.ts';
import type { EventRow } from '../shared/events/types.ts';
import type { StreamHub } from './stream-hub.ts';

export interface OtelExport {
  shutdown(): Promise<void>;
}

export function startOtelExport(_opts: { config: Config; logger: Logger; events: StreamHub<EventRow> }): OtelExport {
  return { shutdown: async () => undefined };
}
