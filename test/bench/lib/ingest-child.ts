// Runs obs-ingest.ts's ingest load in a forked child (fixtures/ingest-load.ts)
// and resolves with its figures: for benchmarks that measure reads while
// ingest runs, whose latencies must not include the time this process spends
// building and posting batches.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../helpers/server.ts';
import type { IngestRun } from '../obs-ingest.ts';
import { nextMessage } from './ipc.ts';
import { track } from './processes.ts';

const FIXTURE = join(REPO_ROOT, 'test', 'bench', 'fixtures', 'ingest-load.ts');

export interface IngestChild {
  /** Resolves when the child has started and begins posting: its own start-up (tsx, module loading) is over. */
  started: Promise<void>;
  /** The figures, once the load has run for its time. */
  done: Promise<IngestRun>;
}

export function ingestLoadInChild(port: number, opts: { connections: number; seconds: number; perSecond?: number }): IngestChild {
  const args = [port, opts.connections, opts.seconds, opts.perSecond ?? 0].map(String);
  const proc = track(fork(FIXTURE, args, { cwd: REPO_ROOT, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] }));
  const started = nextMessage(proc.child, 'started', 60_000).then(() => undefined);
  const done = started
    .then(() => nextMessage<IngestRun & { type: string }>(proc.child, 'done', (opts.seconds + 60) * 1000))
    .finally(() => proc.stop());
  // A caller that awaits one of them and stops at its failure must not leave the other unhandled.
  started.catch(() => undefined);
  done.catch(() => undefined);
  return { started, done };
}
