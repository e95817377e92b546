// A component's view of a job in the store: re-renders on each frame.
import { useStore } from '../../lib/store.ts';
import { jobStore, type Job, type JobKind } from './job-store.ts';

export function useJob(kind: JobKind): Job | undefined {
  return useStore(jobStore)[kind];
}
