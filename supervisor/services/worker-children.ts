// The child processes a worker has started and not yet seen end (issue 15
// #17). Processes belong to the whole svc process, not to the thread that
// spawned them: a worker that crashes (or is terminated) leaves its CLI runs
// and installs running, with nobody to bound or read them. The worker
// reports each child it starts and its end over its channel; when the
// worker's thread exits, whatever it left is ended here: SIGTERM to the
// child's process group, SIGKILL after the grace.
import type { Logger } from '../../shared/log.ts';
import { killTree } from '../../shared/process-tree.ts';

export interface WorkerChildren {
  started(pid: number): void;
  ended(pid: number): void;
  /** The worker is gone: ends every child it left; returns their pids. */
  reap(): number[];
}

export function createWorkerChildren(logger: Logger, graceMs?: number): WorkerChildren {
  const live = new Set<number>();
  return {
    started: (pid) => void live.add(pid),
    ended: (pid) => void live.delete(pid),
    reap() {
      const pids = [...live];
      live.clear();
      for (const pid of pids) killTree(pid, { graceMs, report: (message) => logger.warn({ pid }, message) });
      if (pids.length > 0) logger.warn({ pids }, 'ended the child processes an exited worker left running');
      return pids;
    },
  };
}
