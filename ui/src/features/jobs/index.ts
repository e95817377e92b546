// The POST-stream jobs (install-gateway, gateway start/restart, self-update)
// as the setup and gateway pages use them. The streams themselves are
// api/system-streams.ts's (through api/post-stream.ts).
export { JobProgress } from './JobProgress.tsx';
export { startJob, getJob, jobStore, type Job, type JobKind } from './job-store.ts';
export { useJob } from './use-job.ts';
export { JOB_LABEL, useSystemJobs } from './system-jobs.ts';
export type { JobState, JobOutcome } from './job-reducer.ts';
