// The pool's entry: one default export that dispatches a job by name, so the
// same entry works compiled and through the tsx bootstrap.
import { integrityCheck } from './db-jobs.ts';
import { evalTrial } from './eval-jobs.ts';
import { skillScan } from './skill-jobs.ts';

const JOBS = { integrityCheck, evalTrial, skillScan } as const;
export type JobName = keyof typeof JOBS;

export default function run({ name, arg }: { name: JobName; arg: never }): unknown {
  const job = JOBS[name];
  if (!job) throw new Error(`unknown job ${String(name)}`);
  return job(arg);
}
