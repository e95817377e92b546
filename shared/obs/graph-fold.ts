// The delegation-graph fold (spec "Delegation graph") over the trailing
// window, in causal order. Pure: what the board tables add comes in through
// `BoardLookup` (graph.ts reads it from the database).
//
// - Tasks: every task a board event in the window names, in order of first
//   appearance. Title, status, assignee and parent come from the newest
//   snapshot a task_created / task_claimed / status_changed row carries;
//   runtime and teamId from the newest row that has them. A task whose only
//   rows in the window are comment_added / dep_linked takes those fields
//   from the board's tasks table (status `todo` if the task is gone too).
//   costUsd: the window's `cost` events with that taskId.
// - Task edges: `delegation` parent → child when both are in the graph;
//   `dependency` blocker → waiting task, from dep_linked rows (linked: false
//   removes the edge) and the board's dependency rows, both ends in the graph.
// - Agents: every agent on a window row, an assignee or a delegator, in order
//   of first appearance; taskIds: the graph's tasks assigned to it; costUsd:
//   its `cost` events in the window.
// - Agent edges (always `delegation`): delegator → assignee, once per pair,
//   never to itself. The delegator is the event's fromAgentId, else the agent
//   on the task_created row, else the parent task's assignee. A native
//   delegation (issue 23: a `speaker_selected` row with trigger `spawn`)
//   adds its own edge from `from` to `to`, no task needed.
import { BOARD_KINDS } from '../events/kinds.ts';
import type { Prices } from '../pricing/index.ts';
import { costOf, depLinkOf, parseData, taskSnapshotOf } from './event-data.ts';
import type { WindowRow } from './window.ts';

export interface GraphTask {
  id: string;
  title: string | null;
  status: string;
  assigneeAgentId: string | null;
  parentTaskId: string | null;
  runtime: string | null;
  teamId: string | null;
  costUsd: number;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  kind: 'delegation' | 'dependency';
}

export interface GraphAgent {
  id: string;
  costUsd: number;
  taskIds: string[];
}

export interface DelegationGraph {
  tasks: GraphTask[];
  taskEdges: GraphEdge[];
  agents: GraphAgent[];
  agentEdges: GraphEdge[];
}

/** A task row from the board, for tasks the window has no snapshot of. */
export interface BoardTask {
  id: string;
  title: string;
  status: string;
  assigneeAgentId: string | null;
  parentTaskId: string | null;
  runtime: string | null;
  teamId: string | null;
  createdByAgentId: string | null;
}

export interface BoardLookup {
  tasks(ids: readonly string[]): BoardTask[];
  /** [taskId, dependsOnTaskId] pairs whose taskId is one of `ids`. */
  dependencies(ids: readonly string[]): Array<[string, string]>;
}

interface TaskState extends GraphTask {
  snapshot: boolean;
  delegator: string | null;
}

const SNAPSHOT_KINDS = new Set(['task_created', 'task_claimed', 'status_changed']);
const edge = (kind: GraphEdge['kind'], source: string, target: string): GraphEdge => ({
  id: `${kind}:${source}->${target}`, source, target, kind,
});

/** A cost without its USD is priced at `prices`. */
export function foldGraph(rows: readonly WindowRow[], board: BoardLookup, prices: Prices): DelegationGraph {
  const tasks = new Map<string, TaskState>();
  const agentCost = new Map<string, number>();
  const taskCost = new Map<string, number>();
  const deps = new Map<string, [string, string]>();
  const seenAgents = new Set<string>();
  const spawnEdges: Array<[string, string]> = [];

  for (const r of rows) {
    if (r.agentId !== null) seenAgents.add(r.agentId);
    if (r.kind === 'cost') {
      const usd = costOf(parseData(r.data), prices).usd;
      if (r.agentId !== null) agentCost.set(r.agentId, (agentCost.get(r.agentId) ?? 0) + usd);
      if (r.taskId !== null) taskCost.set(r.taskId, (taskCost.get(r.taskId) ?? 0) + usd);
      continue;
    }
    if (r.kind === 'speaker_selected') {
      const d = parseData(r.data);
      if (d.trigger === 'spawn' && typeof d.from === 'string' && typeof d.to === 'string' && d.from !== d.to) spawnEdges.push([d.from, d.to]);
      continue;
    }
    if (r.taskId === null || !BOARD_KINDS.has(r.kind)) continue;
    let t = tasks.get(r.taskId);
    if (!t) {
      t = { id: r.taskId, title: null, status: 'todo', assigneeAgentId: null, parentTaskId: null, runtime: null,
        teamId: null, costUsd: 0, snapshot: false, delegator: null };
      tasks.set(r.taskId, t);
    }
    if (r.runtime !== null) t.runtime = r.runtime;
    if (r.teamId !== null) t.teamId = r.teamId;
    const d = parseData(r.data);
    if (SNAPSHOT_KINDS.has(r.kind)) {
      const s = taskSnapshotOf(d);
      t.snapshot = true;
      t.title = s.title;
      if (s.status !== null) t.status = s.status;
      t.assigneeAgentId = s.assigneeAgentId;
      t.parentTaskId = s.parentTaskId;
      if (s.fromAgentId !== null) t.delegator = s.fromAgentId;
      else if (r.kind === 'task_created' && r.agentId !== null && t.delegator === null) t.delegator = r.agentId;
    } else if (r.kind === 'dep_linked') {
      const link = depLinkOf(d);
      if (!link) continue;
      const key = `${link.dependsOnTaskId}\n${r.taskId}`;
      if (link.linked) deps.set(key, [link.dependsOnTaskId, r.taskId]);
      else deps.delete(key);
    }
  }

  fillFromBoard(tasks, board);
  const ids = [...tasks.keys()];
  for (const [taskId, dependsOn] of board.dependencies(ids)) deps.set(`${dependsOn}\n${taskId}`, [dependsOn, taskId]);

  const taskEdges: GraphEdge[] = [];
  const agentEdges = new Map<string, GraphEdge>();
  const agents = new Map<string, GraphAgent>();
  const agent = (id: string): GraphAgent => {
    let a = agents.get(id);
    if (!a) {
      a = { id, costUsd: agentCost.get(id) ?? 0, taskIds: [] };
      agents.set(id, a);
    }
    return a;
  };
  for (const id of seenAgents) agent(id);
  for (const t of tasks.values()) {
    t.costUsd = taskCost.get(t.id) ?? 0;
    const parent = t.parentTaskId !== null ? tasks.get(t.parentTaskId) : undefined;
    if (parent) taskEdges.push(edge('delegation', parent.id, t.id));
    if (t.assigneeAgentId === null) continue;
    agent(t.assigneeAgentId).taskIds.push(t.id);
    const from = t.delegator ?? parent?.assigneeAgentId ?? null;
    if (from !== null && from !== t.assigneeAgentId) {
      agent(from);
      const e = edge('delegation', from, t.assigneeAgentId);
      agentEdges.set(e.id, e);
    }
  }
  for (const [from, to] of spawnEdges) {
    agent(from);
    agent(to);
    const e = edge('delegation', from, to);
    agentEdges.set(e.id, e);
  }
  for (const [source, target] of deps.values()) {
    if (tasks.has(source) && tasks.has(target)) taskEdges.push(edge('dependency', source, target));
  }
  return {
    tasks: [...tasks.values()].map(({ snapshot: _s, delegator: _d, ...t }) => t),
    taskEdges,
    agents: [...agents.values()],
    agentEdges: [...agentEdges.values()],
  };
}

/** Tasks with no snapshot in the window take their fields from the board's row. */
function fillFromBoard(tasks: Map<string, TaskState>, board: BoardLookup): void {
  const missing = [...tasks.values()].filter((t) => !t.snapshot).map((t) => t.id);
  if (missing.length === 0) return;
  for (const b of board.tasks(missing)) {
    const t = tasks.get(b.id);
    if (!t) continue;
    t.title = b.title;
    t.status = b.status;
    t.assigneeAgentId = b.assigneeAgentId;
    t.parentTaskId = b.parentTaskId;
    t.runtime ??= b.runtime;
    t.teamId ??= b.teamId;
    t.delegator ??= b.createdByAgentId;
  }
}
