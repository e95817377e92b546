// The per-kind `data` fields svc reads: the observability folds here and the
// OTLP span builder (shared/otel/event-data.ts), so a trace's cost in the
// built-in views and in an exported span is one number (the spec leaves the
// payload shapes to svc; README "Observability: event data"). Every reader is
// total: a field of the wrong type counts as absent, and data that is not a
// JSON object counts as `{}`, so no stored row can make a read fail.
//
//   cost:               { usd?: number, inputTokens?: number, outputTokens?: number, model?: string }
//                       usd wins; without it the USD comes from the token
//                       counts at the caller's prices (shared/pricing: the
//                       gateway's configured prices first). The spellings
//                       model APIs use are read too (usageOf).
//   tool_result:        { isError?: boolean, ok?: boolean } failed when
//                       isError === true or ok === false.
//   error:              { errorClass?: string, message?: string }
//   task_created, task_claimed, status_changed (written by shared/board):
//                       { title, status, assigneeAgentId, parentTaskId,
//                         fromAgentId? (delegations) }
//   dep_linked:         { dependsOnTaskId: string, linked: boolean }
//   execution_started / execution_completed: no field is read; the row's
//                       agentId and taskId say whose execution it is.
import type { Prices } from '../pricing/index.ts';

export type Data = Record<string, unknown>;

/** The row's data text as an object; anything else is `{}`. */
export function parseData(text: string): Data {
  if (text === '{}' || text === '') return {};
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Data) : {};
  } catch {
    // Stored data is written as JSON by appendEvent; a row that is not (a
    // hand-edited database) simply carries no fields for the folds.
    return {};
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** A count or an amount: a finite number ≥ 0, else absent. */
const amount = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
const first = <T>(...vs: Array<T | undefined>): T | undefined => vs.find((v) => v !== undefined);

/** What an event says about usage, each field absent unless given with the right type. */
export interface UsageFields {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  /** An explicit USD amount. */
  usd?: number | undefined;
  model?: string | undefined;
}

/**
 * Usage in the spellings in use: camelCase, snake_case, and a nested `usage`
 * object as model APIs return it (input/prompt, output/completion tokens).
 */
export function usageOf(d: Data): UsageFields {
  const u: Data = d.usage !== null && typeof d.usage === 'object' && !Array.isArray(d.usage) ? (d.usage as Data) : {};
  return {
    inputTokens: first(amount(d.inputTokens), amount(d.input_tokens), amount(u.input_tokens), amount(u.inputTokens), amount(u.prompt_tokens)),
    outputTokens: first(amount(d.outputTokens), amount(d.output_tokens), amount(u.output_tokens), amount(u.outputTokens), amount(u.completion_tokens)),
    usd: first(amount(d.usd), amount(d.costUsd), amount(d.cost_usd)),
    model: str(d.model) ?? str(d.modelId) ?? undefined,
  };
}

export interface CostFields {
  usd: number;
  inputTokens: number;
  outputTokens: number;
}

/** A `cost` event's spend: the explicit USD when given, else priced from its tokens and model at `prices`. */
export function costOf(d: Data, prices: Prices): CostFields {
  const u = usageOf(d);
  const inputTokens = u.inputTokens ?? 0;
  const outputTokens = u.outputTokens ?? 0;
  return { usd: u.usd ?? prices.costOf({ model: u.model, inputTokens, outputTokens }), inputTokens, outputTokens };
}

export function toolFailed(d: Data): boolean {
  return d.isError === true || d.ok === false;
}

export interface ErrorFields {
  errorClass: string;
  message: string;
}

export function errorOf(d: Data): ErrorFields {
  return { errorClass: str(d.errorClass) ?? 'Unknown', message: typeof d.message === 'string' ? d.message : '' };
}

export interface TaskSnapshot {
  title: string | null;
  status: string | null;
  assigneeAgentId: string | null;
  parentTaskId: string | null;
  fromAgentId: string | null;
}

export function taskSnapshotOf(d: Data): TaskSnapshot {
  return {
    title: typeof d.title === 'string' ? d.title : null,
    status: str(d.status),
    assigneeAgentId: str(d.assigneeAgentId),
    parentTaskId: str(d.parentTaskId),
    fromAgentId: str(d.fromAgentId),
  };
}

export interface DepLink {
  dependsOnTaskId: string;
  linked: boolean;
}

export function depLinkOf(d: Data): DepLink | null {
  const dependsOnTaskId = str(d.dependsOnTaskId);
  return dependsOnTaskId ? { dependsOnTaskId, linked: d.linked !== false } : null;
}
