// What a native delegation writes into the parent's team transcript (issue
// 23, docs/delegation.md, "What svc shows for each"; the tracker is
// spawns.ts): an accepted `sessions_spawn` is a hand-over entry under the
// parent with the `speaker_selected` event that names the child; a refused
// one is a note under the parent with a `tool_result` event carrying the
// gateway's reason.
import type { TeamChatContext } from '../context.ts';
import type { Execution } from '../runs/executions.ts';
import { spawnLabel, type SpawnArgs } from './spawn-keys.ts';
import type { Tracked } from './spawn-runs.ts';
import type { RosterAgent } from '../routing/answerer.ts';

/** The agent whose run called `sessions_spawn`, and the svc key its entries go under. */
export interface SpawnParent {
  teamId: string;
  agent: RosterAgent;
  svcKey: string;
}

/** The hand-over of child run `t` (written with its executions row, in open()'s transaction). */
export function writeHandOver(ctx: TeamChatContext, parent: SpawnParent, t: Tracked): void {
  ctx.entries.handOver({
    teamId: parent.teamId,
    agentId: parent.agent.id,
    sessionKey: parent.svcKey,
    text: `${parent.agent.name} handed “${t.label}” to ${t.agent.name}`,
    runId: t.parentRunId,
    childSessionKey: t.gatewaySessionKey,
    label: t.label,
    taskId: t.taskId,
  });
  ctx.eventLog.append({
    kind: 'speaker_selected',
    teamId: parent.teamId,
    agentId: t.agent.id,
    taskId: t.taskId,
    traceId: t.traceId,
    parentSpanId: t.parentSpanId,
    correlationId: t.chainId,
    data: { from: parent.agent.id, to: t.agent.id, reason: t.label, trigger: 'spawn', childSessionKey: t.gatewaySessionKey },
  });
}

/** A spawn the gateway refused (outside the roster, a depth limit): the note once per tool call, and its event. */
export function writeRefusal(
  ctx: TeamChatContext,
  parent: SpawnParent,
  call: { parentRow: Execution | null; parentRunId: string | null; toolCallId: string; args: SpawnArgs; status: string; error: string },
): void {
  const { parentRow, toolCallId } = call;
  const label = spawnLabel(call.args);
  const to = call.args.agentId ?? 'another agent';
  const reason = ctx.redactor.text(call.error);
  ctx.tx.run(() => {
    ctx.entries.meta({
      entryId: `spawn-refused-${toolCallId}`,
      teamId: parent.teamId,
      agentId: parent.agent.id,
      sessionKey: parent.svcKey,
      text: `${parent.agent.name} could not hand “${label}” to ${to}: ${reason}`,
      runId: call.parentRunId,
      trigger: 'spawn',
    });
    ctx.eventLog.append({
      kind: 'tool_result',
      teamId: parent.teamId,
      agentId: parent.agent.id,
      taskId: parentRow?.taskId ?? null,
      traceId: parentRow?.traceId ?? null,
      parentSpanId: parentRow?.spanId ?? null,
      correlationId: parentRow?.chainId ?? null,
      data: { name: 'sessions_spawn', status: call.status, error: reason, toAgentId: to, toolCallId },
    });
  });
}
