// The board's rows as the API shows them (svc's design; README "Board").
export const TASK_STATUSES = ['todo', 'in_progress', 'in_review', 'done', 'blocked', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/**
 * Where a task was created (migration 16): `api` through svc's HTTP API (the
 * dashboard, POST /api/tasks, a delegate route), by svc itself, or before
 * svc recorded origins; `mcp` through svc's tasks MCP server (an HTTP
 * session or the stdio binary), which only agents use. The team-chat
 * orchestrator delivers an `mcp` task even when it names no creator
 * (shared/team-chat/routing/delegations.ts). Only a task that is not `api` has a
 * row in task_origins.
 */
export const TASK_ORIGINS = ['api', 'mcp'] as const;
export type TaskOrigin = (typeof TASK_ORIGINS)[number];

export interface Task {
  id: string;
  teamId: string | null;
  title: string;
  description: string;
  status: TaskStatus;
  assigneeAgentId: string | null;
  /** The agent that created (delegated) the task; null when a person did. */
  createdByAgentId: string | null;
  /** Set on a delegated subtask: the task it was delegated from. */
  parentTaskId: string | null;
  runtime: string | null;
  costUsd: number;
  createdAt: number;
  updatedAt: number;
  claimedAt: number | null;
  completedAt: number | null;
  /** Ids of the tasks this one waits for (`dependency` edges). */
  dependsOn: string[];
  /**
   * Where the task was created. Every task the board reads has it; optional
   * only so a task the dashboard builds from a live board frame (which does
   * not carry it) is still a Task.
   */
  origin?: TaskOrigin;
}

export interface TaskComment {
  id: string;
  taskId: string;
  /** null when a person wrote it from the dashboard. */
  authorAgentId: string | null;
  body: string;
  createdAt: number;
}

export const TASK_COLUMNS_SQL = `t.id, t.team_id AS teamId, t.title, t.description, t.status,
  t.assignee_agent_id AS assigneeAgentId, t.created_by_agent_id AS createdByAgentId,
  t.parent_task_id AS parentTaskId, t.runtime, t.cost_usd AS costUsd, t.created_at AS createdAt,
  t.updated_at AS updatedAt, t.claimed_at AS claimedAt, t.completed_at AS completedAt,
  COALESCE((SELECT o.origin FROM task_origins o WHERE o.task_id = t.id), 'api') AS origin,
  (SELECT json_group_array(d.depends_on_task_id) FROM task_dependencies d WHERE d.task_id = t.id) AS dependsOn`;
