// The POST-stream jobs (install-gateway, gateway start/restart, self-update)
// as the setup and gateway pages use them.
export { JobProgress } from './JobProgress.tsx';
export { startJob, getJob, jobStore, type Job, type JobKind } from './job-store.ts';
export { useJob } from './use-job.ts';
export { postStream } from './post-stream.ts';
export type { JobState, JobOutcome } from './job-reducer.ts';
