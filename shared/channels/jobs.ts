// Contract of the piscina job pool (supervisor/services/pool.ts →
// workers/jobs/main.ts): the jobs by name, each with the schema of its argument and of its result.
// A task is { v, id, name, arg }; the pool thread answers { v, id, ok, result }
// or { v, id, ok: false, error: { code, message } }: failures cross as
// values, as on the other channels (contract.ts). The pool thread parses the argument, the supervisor
// parses the result; neither trusts what crossed the thread.
import { z } from 'zod';
import { TrialResultSchema } from '../eval/types.ts';
import { ModelRequestJobArg, ModelRequestJobResult } from '../model-proxy/request-facts.ts';
import { SkillScanJobArg, SkillScanJobResult } from '../skills/schemas.ts';
import { CHANNEL_VERSION } from './contract.ts';

export const JOBS = {
  /** PRAGMA integrity_check over a read-only connection: ['ok'] when the file is sound. */
  integrityCheck: { arg: z.object({ dbPath: z.string().min(1) }), result: z.array(z.string()) },
  /** One eval smoke trial of a catalogue task, on its own temporary database. */
  evalTrial: { arg: z.object({ taskId: z.string().min(1) }), result: TrialResultSchema },
  /** The skill injection scan (issue 15 #3); its schemas stay beside the skill inputs. */
  skillScan: { arg: SkillScanJobArg, result: SkillScanJobResult },
  /** A large model-endpoint request body read off the endpoint's thread (shared/model-proxy/request-facts.ts). */
  modelRequest: { arg: ModelRequestJobArg, result: ModelRequestJobResult },
} as const;

export type JobName = keyof typeof JOBS;
/** What a caller passes (before parsing). */
export type JobArgInput<N extends JobName> = z.input<(typeof JOBS)[N]['arg']>;
/** What a job receives (after parsing). */
export type JobArg<N extends JobName> = z.output<(typeof JOBS)[N]['arg']>;
export type JobResult<N extends JobName> = z.output<(typeof JOBS)[N]['result']>;

/**
 * The same schemas, typed per name through a mapped type, so code generic in
 * the name (the pool's run, the thread's dispatch) keeps the name and its
 * types together without a cast.
 */
export type JobSchemas = {
  [N in JobName]: { arg: z.ZodType<JobArg<N>, JobArgInput<N>>; result: z.ZodType<JobResult<N>> };
};
export const JOB_SCHEMAS: JobSchemas = JOBS;

/** The functions behind the names, in the pool thread. */
export type JobHandlers = { [N in JobName]: (arg: JobArg<N>) => JobResult<N> | Promise<JobResult<N>> };

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOBS, name);
}

/**
 * Error codes: the first four are the pool thread's, the rest the
 * supervisor's (a reply it cannot use, its own time limit, its caller's abort).
 */
export const JOB_ERROR = {
  invalidTask: 'INVALID_TASK',
  unknownJob: 'UNKNOWN_JOB',
  invalidArgument: 'INVALID_ARGUMENT',
  failed: 'JOB_FAILED',
  invalidReply: 'INVALID_REPLY',
  invalidResult: 'INVALID_RESULT',
  timeout: 'TIMEOUT',
  aborted: 'ABORTED',
} as const;
export const JobErrorCode = z.enum(JOB_ERROR);
export type JobErrorCode = z.infer<typeof JobErrorCode>;

/** What the pool sends. `name` is a plain string here: the thread answers an unknown one with UNKNOWN_JOB. */
export const JobTask = z.object({
  v: z.literal(CHANNEL_VERSION),
  id: z.number().int(),
  name: z.string(),
  arg: z.unknown(),
});
export type JobTask = z.infer<typeof JobTask>;

/** What the pool thread answers; `result` is parsed afterwards with the job's own schema. */
export const JobReply = z.discriminatedUnion('ok', [
  z.object({ v: z.literal(CHANNEL_VERSION), id: z.number().int(), ok: z.literal(true), result: z.unknown() }),
  z.object({ v: z.literal(CHANNEL_VERSION), id: z.number().int(), ok: z.literal(false), error: z.object({ code: JobErrorCode, message: z.string() }) }),
]);
export type JobReply = z.infer<typeof JobReply>;

/**
 * Where and why a value failed its schema, for an error message: paths and
 * zod's messages only (they name the expected type, not the value received),
 * so no argument text (a skill body, a path) is copied into it.
 */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');
}
