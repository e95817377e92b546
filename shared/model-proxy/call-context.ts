// Who a model call belongs to, from svc's own state only. The agent is the
// endpoint path's (its token is bound to it). The team, the board task, the
// run and the trace come from svc's running execution of that agent
// (shared/team-chat/runs/executions.ts); text in the body never names a budget:
// an agent can write any `Runtime: … session=<key>` line it likes. With no
// running execution, every team the agent is on (its own and those it
// leads) applies, so a call outside svc's runs is still held to every cap
// that could be meant. With several, every running team applies; the body's
// session key only picks which of the agent's own executions labels the
// call's record and trace.
import type { Db } from '../db/open.ts';

export interface CallContext {
  /** The execution's session key, else the body's when it has a session key's shape (display only). */
  sessionKey: string | null;
  /** The session key of svc's execution (a halt targets only this), else null. */
  executionSessionKey: string | null;
  /** The team the call's record names: the execution's, else the agent's only team, else null. */
  teamId: string | null;
  taskId: string | null;
  /** Every team whose budgets apply. */
  teamIds: string[];
  /** Every board task whose budgets apply. */
  taskIds: string[];
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

/** Longest session key kept on a call's row; longer or oddly shaped keys are not kept. */
export const MAX_SESSION_KEY_LENGTH = 200;
const SESSION_KEY_SHAPE = /^[A-Za-z0-9:._@/+-]+$/;

/** A caller-written session key as svc stores it: its shape checked and its length capped, else null. */
export function storableSessionKey(key: string | null): string | null {
  if (key === null || key.length > MAX_SESSION_KEY_LENGTH || !SESSION_KEY_SHAPE.test(key)) return null;
  return key;
}

interface ExecutionRow {
  id: string;
  teamId: string;
  taskId: string | null;
  sessionKey: string;
  runId: string | null;
  traceId: string;
  spanId: string;
}

export interface CallContextReader {
  /** `claimed`: the session key the body's Runtime line names (request-facts.ts), only ever a label. */
  of(agentId: string, claimed: string | null): CallContext;
}

/** How many running executions of one agent are read for a call (an agent runs in a few teams at most). */
const MAX_RUNNING = 50;

export function createCallContextReader(db: Db): CallContextReader {
  // The gateway may lowercase ids and keys.
  const running = db.prepare(
    `SELECT id, team_id AS teamId, task_id AS taskId, session_key AS sessionKey, run_id AS runId, trace_id AS traceId, span_id AS spanId
     FROM executions WHERE status = 'running' AND lower(agent_id) = lower(?)
     ORDER BY started_at DESC, id DESC LIMIT ${MAX_RUNNING}`,
  );
  // The path's agent is a gateway agent id: svc's agent with that gateway id, or with that id.
  const teamsOf = db
    .prepare(
      `WITH mine AS (SELECT id, team_id FROM agents WHERE lower(coalesce(gateway_id, id)) = lower(@a) OR lower(id) = lower(@a))
       SELECT team_id FROM mine WHERE team_id IS NOT NULL
       UNION SELECT t.id FROM teams t JOIN mine ON t.leader_agent_id = mine.id`,
    )
    .pluck();
  /** svc's key is the gateway's without a spawn suffix: the claimed key is the row's or extends it. */
  const claims = (row: ExecutionRow, key: string | null) => {
    if (key === null) return false;
    const k = key.toLowerCase();
    const own = row.sessionKey.toLowerCase();
    return k === own || k.startsWith(`${own}:`);
  };
  return {
    of(agentId, claimed) {
      const rows = running.all(agentId) as ExecutionRow[];
      if (rows.length === 0) {
        const teamIds = (teamsOf.all({ a: agentId }) as string[]).sort();
        return {
          sessionKey: claimed, executionSessionKey: null,
          teamId: teamIds.length === 1 ? (teamIds[0] as string) : null, taskId: null, teamIds, taskIds: [],
          runId: null, executionId: null, traceId: null, spanId: null,
        };
      }
      const row = rows.find((r) => claims(r, claimed)) ?? (rows[0] as ExecutionRow);
      const uniq = (xs: Array<string | null>) => [...new Set(xs.filter((x): x is string => x !== null))].sort();
      return {
        sessionKey: row.sessionKey, executionSessionKey: row.sessionKey, teamId: row.teamId, taskId: row.taskId,
        teamIds: uniq(rows.map((r) => r.teamId)), taskIds: uniq(rows.map((r) => r.taskId)),
        runId: row.runId, executionId: row.id, traceId: row.traceId, spanId: row.spanId,
      };
    },
  };
}
