// GET /api/obs/graph: the delegation graph of the trailing window, with the
// board tables as graph-fold.ts's lookup (tasks with no snapshot in the
// window, and the dependency rows between the window's tasks).
import type { Db } from '../db/open.ts';
import { priceBookFor } from '../pricing/index.ts';
import { foldGraph, type BoardLookup, type BoardTask, type DelegationGraph } from './graph-fold.ts';
import type { WindowReader } from './window.ts';

export function createBoardLookup(db: Db): BoardLookup {
  const tasks = db.prepare(
    `SELECT id, title, status, assignee_agent_id AS assigneeAgentId, parent_task_id AS parentTaskId, runtime,
       team_id AS teamId, created_by_agent_id AS createdByAgentId
     FROM tasks WHERE id IN (SELECT value FROM json_each(?))`,
  );
  const deps = db.prepare(
    'SELECT task_id, depends_on_task_id FROM task_dependencies WHERE task_id IN (SELECT value FROM json_each(?))',
  ).raw();
  return {
    tasks: (ids) => tasks.all(JSON.stringify(ids)) as BoardTask[],
    dependencies: (ids) => (ids.length === 0 ? [] : (deps.all(JSON.stringify(ids)) as Array<[string, string]>)),
  };
}

export interface GraphReader {
  read(teamId: string | undefined): DelegationGraph;
}

export function createGraphReader(db: Db, window: WindowReader): GraphReader {
  const board = createBoardLookup(db);
  const prices = priceBookFor(db);
  return { read: (teamId) => foldGraph(window.read(teamId), board, prices.current()) };
}
