// The pool's entry: one default export that takes a task of the jobs
// contract (shared/channels/jobs.ts), parses its argument with the job's
// schema, runs the job and answers with a reply value, so the same entry
// works compiled and through the tsx bootstrap. Failures are answered, not
// thrown: an Error thrown here would reach the supervisor as a cloned
// instance, and the contract carries only values.
import { CHANNEL_VERSION } from '../../shared/channels/contract.ts';
import {
  JOB_ERROR, JOB_SCHEMAS, JobTask, describeIssues, isJobName,
  type JobErrorCode, type JobHandlers, type JobName, type JobReply,
} from '../../shared/channels/jobs.ts';
import { integrityCheck } from './db-jobs.ts';
import { evalTrial } from './eval-jobs.ts';
import { skillScan } from './skill-jobs.ts';
import { readRequest } from '../../shared/model-proxy/request-facts.ts';
import { publicMessageOf } from '../../shared/errors.ts';

const HANDLERS: JobHandlers = {
  integrityCheck,
  evalTrial,
  skillScan,
  modelRequest: ({ api, agentId, models, raw }) => readRequest(api, agentId, models, raw),
};

const failure = (id: number, code: JobErrorCode, message: string): JobReply => ({ v: CHANNEL_VERSION, id, ok: false, error: { code, message } });

async function runJob<N extends JobName>(id: number, name: N, arg: unknown): Promise<JobReply> {
  const parsed = JOB_SCHEMAS[name].arg.safeParse(arg);
  if (!parsed.success) return failure(id, JOB_ERROR.invalidArgument, `jobs.${name}: invalid argument (${describeIssues(parsed.error)})`);
  try {
    return { v: CHANNEL_VERSION, id, ok: true, result: await HANDLERS[name](parsed.data) };
  } catch (err) {
    // The message can reach an HTTP body (eval smoke's 500): a SQLite error crosses by its code only.
    return failure(id, JOB_ERROR.failed, `jobs.${name}: ${publicMessageOf(err)}`);
  }
}

export default async function run(raw: unknown): Promise<JobReply> {
  const task = JobTask.safeParse(raw);
  if (!task.success) return failure(0, JOB_ERROR.invalidTask, `jobs: malformed task (${describeIssues(task.error)})`);
  const { id, name, arg } = task.data;
  if (!isJobName(name)) return failure(id, JOB_ERROR.unknownJob, `jobs: unknown job ${name.slice(0, 64)}`);
  return runJob(id, name, arg);
}
