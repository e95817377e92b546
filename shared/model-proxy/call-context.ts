// Who a model call belongs to. The gateway sends no agent or session id in
// headers (RECIPE §10): the agent is the endpoint path's (its per-agent
// provider), the session key is read from the `Runtime: … session=<key> | …`
// line the gateway puts in the turn's user message, and svc's running
// execution of that agent and session (shared/team-chat/executions.ts) gives
// the team, the board task, the run and the trace. A call of a session svc
// did not start (a CLI chat, a sub-agent) still has its agent; a team
// session key gives its team.
import type { Db } from '../db/open.ts';

export interface CallContext {
  sessionKey: string | null;
  teamId: string | null;
  taskId: string | null;
  /** The gateway run id of svc's execution, when svc started the run. */
  runId: string | null;
  executionId: string | null;
  /** svc's trace and span of the execution (the call's span hangs under it). */
  traceId: string | null;
  spanId: string | null;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (typeof obj(p)?.text === 'string' ? (obj(p)?.text as string) : '')).join('\n');
}

/** The texts of the user messages (chat `messages` or Responses `input`), newest first. */
export function userTextsNewestFirst(body: Obj): string[] {
  const list = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : null;
  if (list === null) return typeof body.input === 'string' ? [body.input] : [];
  const out: string[] = [];
  for (let i = list.length - 1; i >= 0; i--) {
    const m = obj(list[i]);
    if (m?.role === 'user') out.push(textOf(m.content));
  }
  return out;
}

const RUNTIME_LINE = /(?:^|\n)[^\n]*Runtime:[^\n]*/;
const SESSION_FIELD = /(?:^|[\s|])session=([^\s|]+)/;

/**
 * The session key of the gateway's Runtime line, else null. The newest user
 * message that has one: on the real gateway the last user message is often
 * its internal-context block, and the turn's Runtime line is in the one
 * before it.
 */
export function sessionKeyOf(body: Obj): string | null {
  for (const text of userTextsNewestFirst(body)) {
    const line = RUNTIME_LINE.exec(text)?.[0];
    if (!line) continue;
    const m = SESSION_FIELD.exec(line);
    return m ? (m[1] as string) : null;
  }
  return null;
}

/** The team of a team session key (`agent:<id>:team:<teamId>[...]`), else null. */
export function teamOfSessionKey(key: string): string | null {
  const m = /^agent:[^:]+:team:([^:]+)/.exec(key);
  return m ? (m[1] as string) : null;
}

interface ExecutionRow {
  id: string;
  teamId: string;
  taskId: string | null;
  runId: string | null;
  traceId: string;
  spanId: string;
}

export interface CallContextReader {
  of(agentId: string, body: Obj): CallContext;
}

export function createCallContextReader(db: Db): CallContextReader {
  // svc's key is the gateway's without a spawn suffix, and the gateway may
  // lowercase keys: the running row whose key is the call's, or its prefix.
  const running = db.prepare(
    `SELECT id, team_id AS teamId, task_id AS taskId, run_id AS runId, trace_id AS traceId, span_id AS spanId
     FROM executions WHERE status = 'running' AND lower(agent_id) = lower(@agentId)
       AND (lower(session_key) = lower(@key) OR lower(@key) LIKE lower(session_key) || ':%')
     ORDER BY started_at DESC, id DESC LIMIT 1`,
  );
  return {
    of(agentId, body) {
      const sessionKey = sessionKeyOf(body);
      const empty: CallContext = { sessionKey, teamId: null, taskId: null, runId: null, executionId: null, traceId: null, spanId: null };
      if (sessionKey === null) return empty;
      const row = running.get({ agentId, key: sessionKey }) as ExecutionRow | undefined;
      if (!row) return { ...empty, teamId: teamOfSessionKey(sessionKey) };
      return { sessionKey, teamId: row.teamId, taskId: row.taskId, runId: row.runId, executionId: row.id, traceId: row.traceId, spanId: row.spanId };
    },
  };
}
