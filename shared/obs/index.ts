// shared/obs: the observability reads over the orchestration event log
// (spec "Observability"): the feed, traces, the error projection, the
// fleet-health and delegation-graph folds over the trailing window.
import type { Db } from '../db/open.ts';
import { priceBookFor } from '../pricing/index.ts';
import { createErrorsReader, type ErrorsReader } from './errors.ts';
import { createFeed, type Feed } from './feed.ts';
import { createGraphReader, type GraphReader } from './graph.ts';
import { foldHealth, type FleetHealth } from './health.ts';
import { createTraceReader, type TraceReader } from './trace.ts';
import { createWindowReader } from './window.ts';

export { clampLimit, splitKinds, FEED_LIMIT_DEFAULT, FEED_LIMIT_MAX, FEED_LIMIT_MIN, type FeedQuery } from './feed.ts';
export { foldHealth, statusOf, STALLED_AFTER_MS, ZOMBIE_AFTER_MS, type FleetHealth, type FleetStatus } from './health.ts';
export { foldGraph, type DelegationGraph } from './graph-fold.ts';
export { traceMetrics, TRACE_CAP, type Trace, type TraceMetrics } from './trace.ts';
export { ERROR_WINDOW, type ErrorEntry, type ErrorFeed } from './errors.ts';
export { FOLD_WINDOW, type WindowRow } from './window.ts';

export interface ObsReads {
  feed: Feed;
  trace: TraceReader;
  errors: ErrorsReader;
  health(teamId: string | undefined, now: number): FleetHealth[];
  graph: GraphReader;
}

/** Prepares every statement once; call per database handle. */
export function createObsReads(db: Db): ObsReads {
  const window = createWindowReader(db);
  const prices = priceBookFor(db);
  return {
    feed: createFeed(db),
    trace: createTraceReader(db),
    errors: createErrorsReader(db),
    health: (teamId, now) => foldHealth(window.read(teamId), now, prices.current()),
    graph: createGraphReader(db, window),
  };
}
