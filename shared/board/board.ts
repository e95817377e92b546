// The task board: every read and write of tasks, dependencies and comments.
// Each mutation runs in one IMMEDIATE transaction and appends its
// orchestration event (task_created, task_claimed, status_changed,
// comment_added, dep_linked) through the event log inside that transaction,
// so a refused or failed change leaves neither the row nor the event.
import type { Db } from '../db/open.ts';
import type { Tx } from '../db/tx.ts';
import { conflict, notFound } from '../errors.ts';
import type { EventLog } from '../events/event-log.ts';
import type { EventInput } from '../events/types.ts';
import { uuidv7 } from '../ids.ts';
import { createCycleCheck } from './cycles.ts';
import type { CommentInput, Delegate, TaskCreate, TaskListQuery, TaskPatch } from './schemas.ts';
import { LIST_LIMIT_DEFAULT } from './schemas.ts';
import { BOARD_MESSAGES, CLOSED, refuseClaim, refuseTransition } from './transitions.ts';
import { TASK_COLUMNS_SQL, type Task, type TaskComment, type TaskOrigin, type TaskStatus } from './types.ts';

/** The tasks that task `param` waits for and that are not done: its open blockers (one definition for the list and the claim guard). */
const OPEN_BLOCKERS_FROM = (param: string) =>
  `FROM task_dependencies d JOIN tasks b ON b.id = d.depends_on_task_id WHERE d.task_id = ${param} AND b.status <> 'done'`;

export interface BoardDeps {
  db: Db;
  tx: Tx;
  eventLog: EventLog;
  now?: () => number;
}

export interface Board {
  list(query?: TaskListQuery): Task[];
  get(id: string): Task | null;
  /** `origin` is where the call came from (types.ts): `api` unless the tasks MCP server creates it. */
  create(input: TaskCreate, origin?: TaskOrigin): Task;
  update(id: string, patch: TaskPatch): Task;
  /** Atomic: of concurrent claims on one task exactly one wins; the others get a conflict. */
  claim(id: string, agentId: string): Task;
  /** `taskId` waits for `dependsOnTaskId`. Refuses cycles. `created` is false when the edge existed. */
  linkDependency(taskId: string, dependsOnTaskId: string): { task: Task; created: boolean };
  unlinkDependency(taskId: string, dependsOnTaskId: string): { task: Task; removed: boolean };
  /** A subtask of `parentId` created by one agent for another (a `delegation` edge). */
  delegate(parentId: string, input: Delegate): Task;
  comment(taskId: string, input: CommentInput): TaskComment;
  comments(taskId: string): TaskComment[];
  /** A team's task counts by status and its `openLimit` most recently updated open tasks, whatever the board's size. */
  snapshot(teamId: string, openLimit: number): BoardSnapshot;
  /** Tasks that `taskId` waits for and that are not done. */
  openBlockers(taskId: string): string[];
}

export interface BoardSnapshot {
  counts: Partial<Record<TaskStatus, number>>;
  recentOpen: Task[];
}

interface TaskRow extends Omit<Task, 'dependsOn'> {
  dependsOn: string;
}

const toTask = (r: TaskRow): Task => ({ ...r, dependsOn: JSON.parse(r.dependsOn) as string[] });

/** What a board event carries about its task: enough for a live board frame. */
const snapshot = (t: Task) => ({
  title: t.title,
  status: t.status,
  assigneeAgentId: t.assigneeAgentId,
  parentTaskId: t.parentTaskId,
});

export function createBoard({ db, tx, eventLog, now = Date.now }: BoardDeps): Board {
  const listStmt = db.prepare(
    `SELECT ${TASK_COLUMNS_SQL} FROM tasks t
     WHERE (@teamId IS NULL OR t.team_id = @teamId)
       AND (@status IS NULL OR t.status = @status)
       AND (@assignee IS NULL OR t.assignee_agent_id = @assignee)
       AND (@parent IS NULL OR t.parent_task_id = @parent)
     ORDER BY t.created_at, t.id LIMIT @limit`,
  );
  const getStmt = db.prepare(`SELECT ${TASK_COLUMNS_SQL} FROM tasks t WHERE t.id = ?`);
  const claimStateStmt = db.prepare('SELECT status, assignee_agent_id AS assigneeAgentId FROM tasks WHERE id = ?');
  const countsStmt = db.prepare('SELECT status, COUNT(*) AS n FROM tasks WHERE team_id = ? GROUP BY status');
  const recentOpenStmt = db.prepare(
    `SELECT ${TASK_COLUMNS_SQL} FROM tasks t
     WHERE t.team_id = ? AND t.status NOT IN (${[...CLOSED].map((st) => `'${st}'`).join(', ')})
     ORDER BY t.updated_at DESC, t.id DESC LIMIT ?`,
  );
  const insertStmt = db.prepare(
    `INSERT INTO tasks (id, team_id, title, description, status, assignee_agent_id, created_by_agent_id,
       parent_task_id, runtime, created_at, updated_at)
     VALUES (@id, @teamId, @title, @description, 'todo', @assignee, @createdBy, @parent, @runtime, @now, @now)`,
  );
  // No row means `api` (types.ts), so only another origin is written.
  const insertOrigin = db.prepare('INSERT INTO task_origins (task_id, origin) VALUES (?, ?)');
  const agentRuntime = db.prepare('SELECT runtime FROM agents WHERE id = ?').pluck();
  const openBlockersStmt = db.prepare(
    `SELECT d.depends_on_task_id ${OPEN_BLOCKERS_FROM('?')} ORDER BY d.depends_on_task_id`,
  ).pluck();
  // The guarded update is what makes a claim atomic: inside the write lock it
  // matches only a task that refuseClaim() would let this agent claim (todo,
  // unassigned or assigned to it, no open blocker), and it decides the claim.
  const claimStmt = db.prepare(
    `UPDATE tasks SET status = 'in_progress', assignee_agent_id = @agent, claimed_at = @now, updated_at = @now,
       runtime = COALESCE(runtime, (SELECT runtime FROM agents WHERE id = @agent))
     WHERE id = @id AND status = 'todo' AND (assignee_agent_id IS NULL OR assignee_agent_id = @agent)
       AND NOT EXISTS (SELECT 1 ${OPEN_BLOCKERS_FROM('@id')})`,
  );
  const insertDep = db.prepare(
    `INSERT INTO task_dependencies (task_id, depends_on_task_id, created_at) VALUES (?, ?, ?)
     ON CONFLICT DO NOTHING`,
  );
  const deleteDep = db.prepare('DELETE FROM task_dependencies WHERE task_id = ? AND depends_on_task_id = ?');
  const updateStmt = db.prepare(
    `UPDATE tasks SET title = @title, description = @description, status = @status,
       assignee_agent_id = @assigneeAgentId, runtime = @runtime, updated_at = @t,
       claimed_at = CASE WHEN @status = 'in_progress' AND claimed_at IS NULL THEN @t ELSE claimed_at END,
       completed_at = CASE WHEN @closed = 1 THEN COALESCE(completed_at, @t) ELSE NULL END
     WHERE id = @id`,
  );
  const closesCycle = createCycleCheck(db);
  const touchStmt = db.prepare('UPDATE tasks SET updated_at = ? WHERE id = ?');
  const insertComment = db.prepare(
    `INSERT INTO task_comments (id, task_id, author_agent_id, body, created_at) VALUES (@id, @taskId, @author, @body, @now)`,
  );
  const commentsStmt = db.prepare(
    `SELECT id, task_id AS taskId, author_agent_id AS authorAgentId, body, created_at AS createdAt
     FROM task_comments WHERE task_id = ? ORDER BY created_at, id`,
  );

  const get = (id: string): Task | null => {
    const r = getStmt.get(id) as TaskRow | undefined;
    return r ? toTask(r) : null;
  };
  const must = (id: string, message: string = BOARD_MESSAGES.notFound): Task => {
    const t = get(id);
    if (!t) throw notFound(message);
    return t;
  };
  const openBlockers = (id: string) => openBlockersStmt.all(id) as string[];
  const event = (kind: EventInput['kind'], task: Task, agentId: string | null, data: Record<string, unknown>) =>
    eventLog.append({ kind, teamId: task.teamId, taskId: task.id, agentId, runtime: task.runtime, data });
  const runtimeOf = (agentId: string | null | undefined): string | null =>
    agentId ? ((agentRuntime.get(agentId) as string | undefined) ?? null) : null;

  const link = (taskId: string, dependsOnTaskId: string): boolean => {
    if (closesCycle(taskId, dependsOnTaskId)) {
      throw conflict(taskId === dependsOnTaskId ? BOARD_MESSAGES.selfDependency : BOARD_MESSAGES.cycle);
    }
    return insertDep.run(taskId, dependsOnTaskId, now()).changes > 0;
  };

  const insertTask = (input: TaskCreate, origin: TaskOrigin, extra: Record<string, unknown>): Task => {
    const parent = input.parentTaskId ? must(input.parentTaskId, BOARD_MESSAGES.parentNotFound) : null;
    const id = uuidv7();
    insertStmt.run({
      id,
      teamId: input.teamId !== undefined ? input.teamId : (parent?.teamId ?? null),
      title: input.title,
      description: input.description ?? '',
      assignee: input.assigneeAgentId ?? null,
      createdBy: input.createdByAgentId ?? null,
      parent: parent?.id ?? null,
      runtime: input.runtime !== undefined ? input.runtime : runtimeOf(input.assigneeAgentId),
      now: now(),
    });
    if (origin !== 'api') insertOrigin.run(id, origin);
    const deps = [...new Set(input.dependsOn ?? [])];
    for (const dep of deps) {
      must(dep, BOARD_MESSAGES.dependencyNotFound);
      link(id, dep);
    }
    const task = must(id);
    event('task_created', task, input.createdByAgentId ?? null, { ...snapshot(task), ...extra });
    for (const dep of deps) event('dep_linked', task, input.createdByAgentId ?? null, { dependsOnTaskId: dep, linked: true });
    return task;
  };

  return {
    list: (q = {}) =>
      (listStmt.all({
        teamId: q.teamId ?? null,
        status: q.status ?? null,
        assignee: q.assigneeAgentId ?? null,
        parent: q.parentTaskId ?? null,
        limit: q.limit ?? LIST_LIMIT_DEFAULT,
      }) as TaskRow[]).map(toTask),
    get,
    openBlockers,
    snapshot(teamId, openLimit) {
      const counts: BoardSnapshot['counts'] = {};
      for (const r of countsStmt.all(teamId) as Array<{ status: TaskStatus; n: number }>) counts[r.status] = r.n;
      return { counts, recentOpen: (recentOpenStmt.all(teamId, openLimit) as TaskRow[]).map(toTask) };
    },
    create: (input, origin = 'api') => tx.run(() => insertTask(input, origin, {})),

    update(id, patch) {
      return tx.run(() => {
        const cur = must(id);
        const next = {
          title: patch.title ?? cur.title,
          description: patch.description ?? cur.description,
          status: patch.status ?? cur.status,
          assigneeAgentId: patch.assigneeAgentId !== undefined ? patch.assigneeAgentId : cur.assigneeAgentId,
          runtime: patch.runtime !== undefined ? patch.runtime : cur.runtime,
        };
        const refusal = refuseTransition(cur.status, next.status, {
          assigneeAgentId: next.assigneeAgentId,
          openBlockers: next.status === 'in_progress' && cur.status !== 'in_progress' ? openBlockers(id) : [],
        });
        if (refusal) throw conflict(refusal, { from: cur.status, to: next.status });
        const changes: Record<string, unknown> = {};
        for (const k of ['title', 'description', 'assigneeAgentId', 'runtime'] as const) {
          if (next[k] !== cur[k]) changes[k] = next[k];
        }
        const statusMoved = next.status !== cur.status;
        if (!statusMoved && Object.keys(changes).length === 0) return cur;
        updateStmt.run({ ...next, t: now(), id, closed: CLOSED.has(next.status) ? 1 : 0 });
        const task = must(id);
        // A field edit is recorded as status_changed with from equal to to, so
        // every board mutation has its event (and a live board frame later).
        event('status_changed', task, patch.actorAgentId ?? null, { ...snapshot(task), from: cur.status, to: task.status, changes });
        return task;
      });
    },

    claim(id, agentId) {
      // A look before taking the write lock: a task already claimed (or
      // otherwise not claimable) is refused from a committed snapshot, which
      // is a true answer as of that read, without queueing behind the writer
      // that has just won it. A claim that may succeed is decided again
      // inside the lock below.
      const seen = claimStateStmt.get(id) as Pick<Task, 'status' | 'assigneeAgentId'> | undefined;
      if (!seen) throw notFound(BOARD_MESSAGES.notFound);
      const early = refuseClaim(seen, agentId, []);
      if (early) throw conflict(early);
      return tx.run(() => {
        if (claimStmt.run({ id, agent: agentId, now: now() }).changes !== 1) {
          // Refused: say why, from the state inside the lock.
          const cur = must(id);
          const blockers = openBlockers(id);
          const refusal = refuseClaim(cur, agentId, blockers) ?? BOARD_MESSAGES.alreadyClaimed;
          throw conflict(refusal, refusal === BOARD_MESSAGES.blocked ? { blockers } : {});
        }
        const task = must(id);
        event('task_claimed', task, agentId, { ...snapshot(task), from: 'todo', to: task.status });
        return task;
      });
    },

    linkDependency(taskId, dependsOnTaskId) {
      return tx.run(() => {
        must(taskId);
        must(dependsOnTaskId, BOARD_MESSAGES.dependencyNotFound);
        const created = link(taskId, dependsOnTaskId);
        if (created) touchStmt.run(now(), taskId);
        const task = must(taskId);
        if (created) event('dep_linked', task, null, { dependsOnTaskId, linked: true });
        return { task, created };
      });
    },

    unlinkDependency(taskId, dependsOnTaskId) {
      return tx.run(() => {
        must(taskId);
        const removed = deleteDep.run(taskId, dependsOnTaskId).changes > 0;
        if (removed) touchStmt.run(now(), taskId);
        const task = must(taskId);
        if (removed) event('dep_linked', task, null, { dependsOnTaskId, linked: false });
        return { task, removed };
      });
    },

    delegate(parentId, input) {
      return tx.run(() => {
        const parent = must(parentId, BOARD_MESSAGES.notFound);
        if (CLOSED.has(parent.status)) throw conflict(BOARD_MESSAGES.closedParent(parent.status));
        return insertTask(
          {
            title: input.title,
            description: input.description,
            teamId: parent.teamId,
            assigneeAgentId: input.toAgentId,
            createdByAgentId: input.fromAgentId,
            parentTaskId: parent.id,
            runtime: input.runtime,
          },
          'api',
          { delegation: true, fromAgentId: input.fromAgentId, toAgentId: input.toAgentId },
        );
      });
    },

    comment(taskId, input) {
      return tx.run(() => {
        const task = must(taskId);
        const c: TaskComment = { id: uuidv7(), taskId, authorAgentId: input.authorAgentId ?? null, body: input.body, createdAt: now() };
        insertComment.run({ id: c.id, taskId, author: c.authorAgentId, body: c.body, now: c.createdAt });
        touchStmt.run(c.createdAt, taskId);
        event('comment_added', task, c.authorAgentId, { commentId: c.id, length: c.body.length });
        return c;
      });
    },

    comments: (taskId) => {
      must(taskId);
      return commentsStmt.all(taskId) as TaskComment[];
    },
  };
}

