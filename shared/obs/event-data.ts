// The per-kind `data` fields the observability folds read (the spec leaves
// the payload shapes to svc; README "Observability: event data"). Every
// reader is total: a field of the wrong type counts as absent, and data that
// is not a JSON object counts as `{}`, so no stored row can make a read fail.
//
//   cost:               { usd?: number, inputTokens?: number, outputTokens?: number, model?: string }
//                       usd wins; without it the USD comes from the token
//                       counts through shared/pricing.ts (costUsd).
//   tool_result:        { isError?: boolean, ok?: boolean } failed when
//                       isError === true or ok === false.
//   error:              { errorClass?: string, message?: string }
//   task_created, task_claimed, status_changed (written by shared/board):
//                       { title, status, assigneeAgentId, parentTaskId,
//                         fromAgentId? (delegations) }
//   dep_linked:         { dependsOnTaskId: string, linked: boolean }
//   execution_started / execution_completed: no field is read; the row's
//                       agentId and taskId say whose execution it is.
import { costUsd } from '../pricing.ts';

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

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export interface CostFields {
  usd: number;
  inputTokens: number;
  outputTokens: number;
}

/** A `cost` event's spend: `usd` when given, else priced from its tokens and model. */
export function costOf(d: Data): CostFields {
  const inputTokens = num(d.inputTokens);
  const outputTokens = num(d.outputTokens);
  const usd = typeof d.usd === 'number' && Number.isFinite(d.usd) && d.usd >= 0
    ? d.usd
    : costUsd(str(d.model), inputTokens, outputTokens);
  return { usd, inputTokens, outputTokens };
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
