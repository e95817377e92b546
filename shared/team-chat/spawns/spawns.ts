// The tracker of native delegations (issue 23; docs/delegation.md, "What svc
// shows for each"; docs/gateway-facts.md, "Native delegation"). A team member's model may hand work to another agent with the
// gateway's own `sessions_spawn`: the gateway runs the child in its own
// session and later brings the result back as an `announce:*` run in the
// parent's session. svc starts neither; this tracker watches them on the
// host's gateway connection and records them as it records its own runs:
// - the parent's tool result: accepted -> the hand-over and the child's
//   executions row, counted against the parent's chain (past the bound the
//   child is aborted at once); refused -> a note;
// - the child's chat events: deltas on the team stream under the child's
//   agent, then its reply entry with its cost (per model call of that run,
//   from chat.history), or its failure;
// - the announce run: the lead continuing with the result, an executions row
//   whose parent is the child's row, its reply entry and cost.
// Each tracked run is bounded by the run timeout, ends `error` when the
// connection is lost, and a Stop of its team aborts it. What opening and
// ending a tracked run writes is in spawn-runs.ts, the hand-over and the
// refusal in spawn-entries.ts; this file reads the gateway's events and
// decides when.
import { ChatEventPayload, messageText, textAfterDelta } from '../../gateway/chat.ts';
import type { ConnectionStatus } from '../../gateway/connection.ts';
import type { EventFrame } from '../../gateway/protocol.ts';
import { uuidv7 } from '../../ids.ts';
import type { TeamChatContext } from '../context.ts';
import type { Execution } from '../runs/executions.ts';
import { newTraceId } from '../runs/run.ts';
import { announceSource, isAnnounceRunId, spawnArgsOf, spawnLabel, spawnResultOf, subagentKeyAgent, teamKeyParts, type SpawnArgs } from './spawn-keys.ts';
import { agentOfGatewayId, sessionKeyOf, type RosterAgent } from '../routing/answerer.ts';
import { readRunUsage } from '../runs/completion.ts';
import { isRunAgent, isRunSession } from '../budgets/budget-halt.ts';
import type { MeteredTarget } from '../budgets/call-meter.ts';
import { createTrackedRuns, newSpanId, type Tracked } from './spawn-runs.ts';
import { writeHandOver, writeRefusal, type SpawnParent } from './spawn-entries.ts';
import type { BudgetHalt } from '../schemas.ts';

export const CONNECTION_LOST = 'the gateway connection was lost during the run';
export const STOPPED_BY_USER = 'stopped by the user';

export interface SpawnAdmission {
  chainId: string;
  traceId: string;
  noteKey: string;
  agent: RosterAgent;
  taskId: string | null;
  parentSpanId: string | null;
}

export interface SpawnTrackerDeps {
  /** Subscribes to one event of the host's gateway connection (handlers survive reconnects). */
  on(event: string, handler: (frame: EventFrame) => void): () => void;
  onStatus(handler: (s: ConnectionStatus) => void): void;
  /** The team orchestrator's turn bound (orchestrator.admitSpawn). */
  admit(teamId: string, p: SpawnAdmission): boolean;
}

export interface SpawnTracker {
  /** Aborts the team's running children and announce runs; their rows become `cancelled`. */
  stopTeam(teamId: string): Promise<{ aborted: number; cancelled: number }>;
  /** A budget reached its cap during a tracked run of that gateway session (budget-halt.ts): it ends `cancelled` naming the budget. */
  haltForBudget(p: BudgetHalt): boolean;
  /** A tracked run as per-call metering sees it (call-meter.ts), null when it is not tracked. */
  meterTarget(runId: string): MeteredTarget | null;
  /** Runs tracked now (the host's stats). */
  running(): number;
  close(): void;
}

/** Who stands behind a gateway session key the tracker follows; svcKey is a team key with svc's agent id, or a child key as is. */
interface Party extends SpawnParent {
  gatewayKey: string;
}

interface ChildInfo {
  party: Party;
  executionId: string;
  runId: string;
}

/** How many child keys, dropped keys and pending tool calls are remembered (oldest forgotten first). */
const REMEMBER_MAX = 2000;

/** Sets `key` in a map or set kept to REMEMBER_MAX entries in insertion order. */
function remember<K, V>(m: Map<K, V>, key: K, value: V): void {
  m.set(key, value);
  if (m.size > REMEMBER_MAX) m.delete(m.keys().next().value as K);
}

export function createSpawnTracker(ctx: TeamChatContext, deps: SpawnTrackerDeps): SpawnTracker {
  const { domain } = ctx;
  const tracked = createTrackedRuns(ctx);
  const { runs, open, end, complete, fail, abortAtGateway } = tracked;
  /** Every child session key seen (depth-2 parents, announce sources), and the keys the turn bound dropped. */
  const children = new Map<string, ChildInfo>();
  const dropped = new Map<string, true>();
  /** `sessions_spawn` arguments from the tool's start event, until its result comes. */
  const toolArgs = new Map<string, SpawnArgs>();
  const offs: Array<() => void> = [];
  let closed = false;

  const agentOf = (teamId: string, gatewayAgentId: string) => agentOfGatewayId(domain, teamId, gatewayAgentId);

  /** The party of a team key of an existing team, or of a child key already followed; null for anything else. */
  const partyOf = (gatewayKey: string): Party | null => {
    const team = teamKeyParts(gatewayKey);
    if (team) {
      if (!domain.teams.get(team.teamId)) return null;
      const { agent } = agentOf(team.teamId, team.gatewayAgentId);
      return { teamId: team.teamId, agent, svcKey: sessionKeyOf(agent, team.teamId), gatewayKey };
    }
    return children.get(gatewayKey)?.party ?? null;
  };

  /** The parent's executions row: its run's, else the agent's latest in the team. */
  const parentRowOf = (party: Party, parentRunId: string | null): Execution | null =>
    (parentRunId ? ctx.executions.byRunId(parentRunId) : null) ?? ctx.executions.lastOf(party.teamId, party.agent.id);

  function startChild(parent: Party, parentRunId: string | null, childKey: string, childRunId: string, args: SpawnArgs): void {
    if (runs.has(childRunId) || children.has(childKey) || dropped.has(childKey)) return;
    const parentRow = parentRowOf(parent, parentRunId);
    const gatewayChild = subagentKeyAgent(childKey) ?? args.agentId ?? 'unknown';
    const { agent, known } = agentOf(parent.teamId, gatewayChild);
    const label = spawnLabel(args);
    const chainId = parentRow?.chainId ?? `spawn-${childKey}`;
    const traceId = parentRow?.traceId ?? newTraceId();
    const taskId = parentRow?.taskId ?? null;
    const parentSpanId = parentRow?.spanId ?? null;
    const admitted = deps.admit(parent.teamId, { chainId, traceId, noteKey: parent.svcKey, agent, taskId, parentSpanId });
    if (!admitted) {
      remember(dropped, childKey, true);
      void abortAtGateway(childKey, childRunId);
      return;
    }
    const t: Tracked = {
      kind: 'spawn',
      teamId: parent.teamId,
      agent,
      known,
      gatewaySessionKey: childKey,
      sessionKey: childKey,
      runId: childRunId,
      executionId: uuidv7(ctx.now()),
      spanId: newSpanId(),
      chainId,
      traceId,
      parentSpanId,
      parentExecutionId: parentRow?.id ?? null,
      taskId,
      parentRunId: parentRunId ?? parentRow?.runId ?? null,
      parentSessionKey: parent.svcKey,
      label,
      text: '',
      timer: null,
    };
    remember(children, childKey, { party: { teamId: parent.teamId, agent, svcKey: childKey, gatewayKey: childKey }, executionId: t.executionId, runId: childRunId });
    open(t, () => writeHandOver(ctx, parent, t));
  }

  function onAgent(frame: EventFrame): void {
    const p = frame.payload as { runId?: unknown; sessionKey?: unknown; stream?: unknown; data?: Record<string, unknown> } | null;
    const d = p?.data;
    if (!p || p.stream !== 'tool' || !d || d.name !== 'sessions_spawn' || typeof d.toolCallId !== 'string' || typeof p.sessionKey !== 'string') return;
    if (d.phase === 'start') {
      remember(toolArgs, d.toolCallId, spawnArgsOf(d.args));
      return;
    }
    if (d.phase !== 'result') return;
    const args = toolArgs.get(d.toolCallId) ?? {};
    toolArgs.delete(d.toolCallId);
    const parent = partyOf(p.sessionKey);
    if (!parent) return;
    const parentRunId = typeof p.runId === 'string' ? p.runId : null;
    const result = spawnResultOf(d.result);
    if (result?.status === 'accepted' && result.childSessionKey && result.runId) {
      startChild(parent, parentRunId, result.childSessionKey, result.runId, args);
      return;
    }
    writeRefusal(ctx, parent, {
      parentRow: parentRowOf(parent, parentRunId),
      parentRunId,
      toolCallId: d.toolCallId,
      args,
      status: result?.status ?? 'error',
      error: result?.error ?? (result ? `status ${result.status}` : 'no readable result'),
    });
  }

  function startAnnounce(runId: string, gatewayKey: string): Tracked | null {
    const lead = partyOf(gatewayKey);
    const source = announceSource(runId);
    if (!lead || !source) return null;
    const child = children.get(source.childSessionKey);
    const childRow = source.childRunId ? ctx.executions.byRunId(source.childRunId) : child ? ctx.executions.get(child.executionId) : null;
    // An announce for a spawn svc never followed (another client's, or from before svc started) is not svc's to show.
    if (!childRow) return null;
    const known = agentOf(lead.teamId, teamKeyParts(gatewayKey)?.gatewayAgentId ?? lead.agent.id).known;
    const t: Tracked = {
      kind: 'announce',
      teamId: lead.teamId,
      agent: lead.agent,
      known,
      gatewaySessionKey: gatewayKey,
      sessionKey: lead.svcKey,
      runId,
      executionId: uuidv7(ctx.now()),
      spanId: newSpanId(),
      chainId: childRow.chainId,
      traceId: childRow.traceId,
      parentSpanId: childRow.spanId,
      parentExecutionId: childRow.id,
      taskId: childRow.taskId,
      parentRunId: childRow.runId,
      parentSessionKey: childRow.sessionKey,
      label: '',
      text: '',
      timer: null,
    };
    open(t, () => undefined);
    return t;
  }

  function onChat(frame: EventFrame): void {
    const parsed = ChatEventPayload.safeParse(frame.payload);
    if (!parsed.success || closed) return;
    const p = parsed.data;
    const key = p.sessionKey;
    if (!key) return;
    let t = runs.get(p.runId);
    if (!t) {
      if (p.state !== 'delta' && p.state !== 'final' && p.state !== 'status') return;
      if (isAnnounceRunId(p.runId)) {
        if (ctx.executions.byRunId(p.runId)) return; // ended already (a late copy)
        t = startAnnounce(p.runId, key) ?? undefined;
      } else {
        // The child started before its parent's tool result was seen: it is registered from its `spawnedBy`.
        const spawnedBy = (frame.payload as { spawnedBy?: unknown }).spawnedBy;
        if (children.has(key) || dropped.has(key) || !subagentKeyAgent(key) || typeof spawnedBy !== 'string') return;
        const parent = partyOf(spawnedBy);
        if (!parent) return;
        startChild(parent, null, key, p.runId, {});
        t = runs.get(p.runId);
      }
      if (!t) return;
    }
    if (p.state === 'delta') {
      t.text = textAfterDelta(t.text, p);
      ctx.emit('delta', { teamId: t.teamId, agentId: t.agent.id, sessionKey: t.sessionKey, runId: t.runId, text: t.text });
    } else if (p.state === 'final') {
      t.text = messageText(p.message) ?? t.text;
      const ended = t;
      end(ended);
      void readRunUsage(ctx, ended.gatewaySessionKey, ended.runId).then(
        (usage) => complete(ended, usage),
        (err: unknown) => ctx.logger.error({ err, runId: ended.runId }, 'team chat: could not record a native delegation'),
      );
    } else if (p.state === 'error') {
      fail(t, p.errorMessage ?? 'run failed', 'error');
    } else if (p.state === 'aborted') {
      fail(t, 'the run was aborted at the gateway', 'cancelled');
    }
  }

  function onStatus(s: ConnectionStatus): void {
    if (s.state === 'connected' || closed) return;
    // The gateway restarted or crashed: nothing it was running for a team stays `running` in svc.
    for (const t of [...runs.values()]) fail(t, CONNECTION_LOST, 'error');
  }

  offs.push(deps.on('agent', onAgent), deps.on('chat', onChat));
  deps.onStatus(onStatus);

  return {
    async stopTeam(teamId) {
      const stopped = [...runs.values()].filter((t) => t.teamId === teamId);
      // Each ends as the page and a reload show it: what streamed kept, a note under the child's key, the row `cancelled`.
      let cancelled = 0;
      for (const t of stopped) if (fail(t, STOPPED_BY_USER, 'cancelled')) cancelled++;
      await Promise.all(stopped.map((t) => abortAtGateway(t.gatewaySessionKey, t.runId)));
      return { aborted: stopped.length, cancelled };
    },
    haltForBudget(p) {
      const t = [...runs.values()].find((r) => isRunAgent(r.agent, p.agentId) && isRunSession(r, p.sessionKey));
      if (!t) return false;
      tracked.halt(t, p.budgetLabel);
      return true;
    },
    meterTarget(runId) {
      const t = runs.get(runId);
      return t ? { ...tracked.metered(t), halt: (stop) => tracked.halt(t, stop.budgetLabel) } : null;
    },
    running: () => runs.size,
    close() {
      closed = true;
      for (const off of offs.splice(0)) off();
      for (const t of runs.values()) if (t.timer) clearTimeout(t.timer);
      runs.clear();
    },
  };
}
