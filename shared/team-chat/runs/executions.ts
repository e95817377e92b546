// The executions table (migration 12): one row per agent run the team-chat
// orchestrator starts, written `running` before the gateway is asked, so a
// crash leaves it behind for recovery to close; and one `cancelled` row per
// run or ready delegation a stop dropped. A task id on any row marks that task
// as delivered once (a released task is not delivered again by itself).
// Native delegations (issue 23, migration 13) add rows svc did not start: a
// spawned child's run and the lead's announce run, each naming its parent row.
import type { Db } from '../../db/open.ts';

export type ExecutionStatus = 'running' | 'completed' | 'error' | 'cancelled';

export interface Execution {
  id: string;
  teamId: string;
  agentId: string;
  sessionKey: string;
  runId: string | null;
  taskId: string | null;
  trigger: string;
  chainId: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  status: ExecutionStatus;
  error: string | null;
  model: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  startedAt: number;
  endedAt: number | null;
  /** The row this run came from: a child's parent run, an announce run's child (null for svc's own runs). */
  parentExecutionId: string | null;
}

export type NewExecution = Pick<
  Execution,
  'id' | 'teamId' | 'agentId' | 'sessionKey' | 'taskId' | 'trigger' | 'chainId' | 'traceId' | 'spanId' | 'parentSpanId' | 'startedAt'
> & { runId?: string | null; parentExecutionId?: string | null };

export interface ExecutionEnd {
  status: Exclude<ExecutionStatus, 'running'>;
  endedAt: number;
  error?: string | null;
  model?: string | null;
  inputTokens?: number | null;
  outputTokens?: number | null;
  costUsd?: number | null;
}

export interface Executions {
  start(row: NewExecution): void;
  setRunId(id: string, runId: string): void;
  /** Ends a `running` row; false when it was no longer running (a stop or recovery closed it first). */
  finish(id: string, end: ExecutionEnd): boolean;
  /** A row that never ran: a delegation a stop dropped before it fired. */
  insertCancelled(row: NewExecution, endedAt: number): void;
  get(id: string): Execution | null;
  /** The row of a gateway run id (the newest, should a run id ever repeat). */
  byRunId(runId: string): Execution | null;
  running(): Execution[];
  /** Whether any row names the task: it has been delivered (or cancelled) once. */
  hasTask(taskId: string): boolean;
  /** The agent's most recent run in the team (a delegation joins its creator's chain). */
  lastOf(teamId: string, agentId: string): Execution | null;
  /** Runs a chain has started (cancelled rows that never ran are not counted). */
  chainRuns(chainId: string): number;
  /** The session keys of the team's native-delegation children (trigger `spawn`, issue 23). */
  spawnSessionKeys(teamId: string): string[];
}

const COLUMNS = `id, team_id AS teamId, agent_id AS agentId, session_key AS sessionKey, run_id AS runId, task_id AS taskId,
  trigger, chain_id AS chainId, trace_id AS traceId, span_id AS spanId, parent_span_id AS parentSpanId, status, error,
  model, input_tokens AS inputTokens, output_tokens AS outputTokens, cost_usd AS costUsd, started_at AS startedAt, ended_at AS endedAt,
  parent_execution_id AS parentExecutionId`;

export function createExecutions(db: Db): Executions {
  const insert = db.prepare(
    `INSERT INTO executions (id, team_id, agent_id, session_key, run_id, task_id, trigger, chain_id, trace_id, span_id, parent_span_id, status, started_at, ended_at, parent_execution_id)
     VALUES (@id, @teamId, @agentId, @sessionKey, @runId, @taskId, @trigger, @chainId, @traceId, @spanId, @parentSpanId, @status, @startedAt, @endedAt, @parentExecutionId)`,
  );
  const runIdStmt = db.prepare('UPDATE executions SET run_id = ? WHERE id = ?');
  const finishStmt = db.prepare(
    `UPDATE executions SET status = @status, ended_at = @endedAt, error = @error, model = @model,
       input_tokens = @inputTokens, output_tokens = @outputTokens, cost_usd = @costUsd
     WHERE id = @id AND status = 'running'`,
  );
  const getStmt = db.prepare(`SELECT ${COLUMNS} FROM executions WHERE id = ?`);
  const byRunStmt = db.prepare(`SELECT ${COLUMNS} FROM executions WHERE run_id = ? ORDER BY started_at DESC, id DESC LIMIT 1`);
  // Served by the partial index executions_running.
  const runningStmt = db.prepare(`SELECT ${COLUMNS} FROM executions WHERE status = 'running' ORDER BY started_at, id`);
  const hasTaskStmt = db.prepare('SELECT 1 FROM executions WHERE task_id = ? LIMIT 1').pluck();
  const lastOfStmt = db.prepare(
    `SELECT ${COLUMNS} FROM executions WHERE team_id = ? AND agent_id = ? AND status <> 'cancelled' ORDER BY started_at DESC, id DESC LIMIT 1`,
  );
  const chainStmt = db.prepare(`SELECT COUNT(*) FROM executions WHERE chain_id = ? AND (run_id IS NOT NULL OR status <> 'cancelled')`).pluck();
  const spawnKeysStmt = db.prepare(`SELECT DISTINCT session_key FROM executions WHERE team_id = ? AND trigger = 'spawn'`).pluck();
  return {
    start: (row) => void insert.run({ runId: null, parentExecutionId: null, ...row, status: 'running', endedAt: null }),
    setRunId: (id, runId) => void runIdStmt.run(runId, id),
    finish: (id, end) =>
      finishStmt.run({
        id,
        status: end.status,
        endedAt: end.endedAt,
        error: end.error ?? null,
        model: end.model ?? null,
        inputTokens: end.inputTokens ?? null,
        outputTokens: end.outputTokens ?? null,
        costUsd: end.costUsd ?? null,
      }).changes === 1,
    insertCancelled: (row, endedAt) => void insert.run({ runId: null, parentExecutionId: null, ...row, status: 'cancelled', endedAt }),
    get: (id) => (getStmt.get(id) as Execution | undefined) ?? null,
    byRunId: (runId) => (byRunStmt.get(runId) as Execution | undefined) ?? null,
    running: () => runningStmt.all() as Execution[],
    hasTask: (taskId) => hasTaskStmt.get(taskId) === 1,
    lastOf: (teamId, agentId) => (lastOfStmt.get(teamId, agentId) as Execution | undefined) ?? null,
    chainRuns: (chainId) => chainStmt.get(chainId) as number,
    spawnSessionKeys: (teamId) => spawnKeysStmt.all(teamId) as string[],
  };
}
