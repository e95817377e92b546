// Dependency-cycle refusal: adding "task waits for dependsOn" closes a cycle
// exactly when dependsOn already (transitively) waits for task, or they are
// the same task. One recursive query walks the edges from dependsOn; UNION
// (not UNION ALL) visits each task once, so the walk is linear in the edges
// even when the graph has many paths between two tasks.
import type { Db } from '../db/open.ts';

export type CycleCheck = (taskId: string, dependsOnTaskId: string) => boolean;

export function createCycleCheck(db: Db): CycleCheck {
  const reach = db
    .prepare(
      `WITH RECURSIVE walk(id) AS (
         SELECT @from
         UNION
         SELECT d.depends_on_task_id FROM walk w JOIN task_dependencies d ON d.task_id = w.id
       )
       SELECT 1 FROM walk WHERE id = @target LIMIT 1`,
    )
    .pluck();
  return (taskId, dependsOnTaskId) => taskId === dependsOnTaskId || reach.get({ from: dependsOnTaskId, target: taskId }) === 1;
}
