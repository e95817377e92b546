// The gateway host's POST streams (spec "System (host and gateway)"): install
// the gateway CLI, install Node 24 for the gateway, start or restart the
// gateway, update svc. Each answers text/event-stream frames (op-stream.ts)
// that the jobs feature folds and shows (features/jobs/system-jobs.ts); when
// one ends, every query under systemKeys.all (system.ts) is read again. Apart
// from system.ts so that the stream reader is loaded with the pages that
// start a job, not with the shell.
import type { JobFrame } from './op-stream.ts';
import { postStream } from './post-stream.ts';

/** Streams a job's frames to `onFrame`; resolves when the stream ends, rejects when the request fails. */
export type SystemStream = (onFrame: (f: JobFrame) => void) => Promise<void>;

/** The POST streams of the gateway host, as the jobs feature runs them (features/jobs/system-jobs.ts). */
export const systemStreams = {
  installGateway: ((f) => postStream('/api/system/install-gateway', {}, f)) satisfies SystemStream,
  installNode: ((f) => postStream('/api/system/install-node', {}, f)) satisfies SystemStream,
  gateway: (action: 'start' | 'restart'): SystemStream => (f) => postStream('/api/system/gateway', { action }, f),
  selfUpdate: ((f) => postStream('/api/system/self-update', {}, f)) satisfies SystemStream,
};
