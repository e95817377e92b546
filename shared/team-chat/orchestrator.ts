// One team's orchestrator (docs/team-chat.md, "How work spreads"): a FIFO
// per agent (one run at a time per agent, agents of the team concurrently),
// the chains that user messages start (a trace, a turn count against the
// bound, chain-rules.ts), hand-overs found in replies, delegations delivered
// when the board makes them ready and their results handed back to the
// lead, and stop.
import { COMMENT_MAX } from '../board/schemas.ts';
import type { Task } from '../board/types.ts';
import { messageOf } from '../errors.ts';
import { uuidv7 } from '../ids.ts';
import type { BudgetHalt, ChatIngest, ExchangeStart } from './schemas.ts';
import type { ExchangeResult, IngestResult, StopCounts, TeamChatContext } from './context.ts';
import { readyDelegations, resultMessage, senderOf, taskMessage } from './routing/delegations.ts';
import { runExchange, type ExchangeState } from './room/exchange.ts';
import { createIdlePreamble } from './runs/idle-preamble.ts';
import { preambleText, readPreambleParts } from './runs/preamble.ts';
import { newTraceId, startRun, type RunHandle, type RunOutcome } from './runs/run.ts';
import type { MeteredTarget } from './budgets/call-meter.ts';
import { teamBudgetHooks } from './budgets/orchestrator-budget.ts';
import { admitToChain, selectSpeaker } from './routing/chain-rules.ts';
import { stopTeam } from './stop.ts';
import type { Chain, Delivery, Trigger } from './work.ts';
import { addressable, gatewaySessionKeyOf, handOvers, loadRoster, resolveTarget, sessionKeyOf, type RosterAgent, type TeamRoster } from './routing/answerer.ts';

export const NO_AGENT_TEXT = 'No agent can answer in this team yet: add an agent or set a lead.';

export interface Orchestrator {
  ingest(p: ChatIngest): IngestResult;
  boardChanged(): void;
  exchange(p: ExchangeStart): ExchangeResult;
  stop(): Promise<StopCounts>;
  /** A budget reached its cap during the run of that session (budget-halt.ts); false when no run of it is going. */
  haltForBudget(p: BudgetHalt): boolean;
  /** The running turn of that gateway session key as per-call metering sees it (call-meter.ts), else null. */
  meterTarget(gatewaySessionKey: string): MeteredTarget | null;
  /**
   * Counts a native delegation (spawns.ts) against its parent's chain: false
   * past the turn bound (`turn_bound_hit` and the bound note written, as for
   * any delivery), and then the child must be aborted.
   */
  admitSpawn(p: { chainId: string; traceId: string; noteKey: string; agent: RosterAgent; taskId: string | null; parentSpanId: string | null }): boolean;
  /** Nothing in flight and nothing queued. */
  idle(): boolean;
  /** When the last run ended or the last message came (the eviction clock). */
  lastActive(): number;
  counts(): { running: number; queued: number; runs: number };
}

/** What the caller has just read of the team: its roster, and when known the whole text of a delivery to it. */
interface Fresh {
  roster: TeamRoster;
  text?: (message: string) => string;
}

export function createOrchestrator(ctx: TeamChatContext, teamId: string): Orchestrator {
  const { domain, now } = ctx;
  const queues = new Map<string, Delivery[]>();
  const running = new Map<string, { delivery: Delivery; handle: RunHandle }>();
  const exchanges = new Set<ExchangeState>();
  const chains = new Map<string, Chain>();
  /** Tasks this orchestrator claimed and has not settled: a stop releases them. */
  const claimed = new Set<string>();
  /** Delegations the turn bound dropped: not offered again while this orchestrator lives. */
  const boundDropped = new Set<string>();
  const budget = teamBudgetHooks(ctx, teamId, { running, exchanges, queues });
  const idlePreamble = createIdlePreamble(ctx, teamId);
  const idle = () => running.size === 0 && exchanges.size === 0 && [...queues.values()].every((q) => q.length === 0);
  let last = now();
  let runs = 0;
  const touch = () => (last = now());

  const chainOf = (id: string, traceId: string, noteKey: string): Chain => {
    let c = chains.get(id);
    if (!c) {
      c = { id, traceId, runs: ctx.executions.chainRuns(id), hit: false, noteKey };
      chains.set(id, c);
    }
    return c;
  };

  const admit = (d: Delivery): boolean => admitToChain(ctx, teamId, d);
  const speakerSelected = (d: Delivery, fromId: string | null, reason: string) => selectSpeaker(ctx, teamId, d, fromId, reason);

  /** `fresh`: what the caller has just read or written of the team (the delivery's text is made from it). */
  const push = (d: Delivery, fresh?: Fresh) => {
    if (budget.isHalted(d.chain.id, d.agent.id)) {
      ctx.logger.info({ teamId, agentId: d.agent.id, chainId: d.chain.id }, 'team chat: delivery dropped, a budget halted this agent in this message');
      return;
    }
    const q = queues.get(d.agent.id) ?? [];
    q.push(d);
    queues.set(d.agent.id, q);
    pump(d.agent.id, fresh);
  };

  const textFor = (roster: TeamRoster, message: string) => preambleText(readPreambleParts(domain, teamId, roster), message);

  function pump(agentId: string, fresh?: Fresh): void {
    if (running.has(agentId) || ctx.closed()) return;
    const d = queues.get(agentId)?.shift();
    if (!d) return;
    let handle: RunHandle;
    try {
      handle = startRun(ctx, {
        teamId,
        agent: d.agent,
        sessionKey: sessionKeyOf(d.agent, teamId),
        gatewaySessionKey: gatewaySessionKeyOf(d.agent, teamId),
        text: fresh?.text ? fresh.text(d.message) : textFor(fresh?.roster ?? loadRoster(domain, teamId), d.message),
        trigger: d.trigger,
        taskId: d.taskId,
        chainId: d.chain.id,
        traceId: d.chain.traceId,
        parentSpanId: d.parentSpanId,
        transcript: true,
      });
    } catch (err) {
      // The database refused the run's row: nothing was sent; the next delivery still gets its turn.
      ctx.logger.error({ err, teamId, agentId }, 'team chat: could not start a run');
      if (d.taskId) claimed.delete(d.taskId);
      pump(agentId);
      return;
    }
    runs++;
    running.set(agentId, { delivery: d, handle });
    void handle.done.then((outcome) => {
      running.delete(agentId);
      try {
        after(d, handle, outcome);
      } catch (err) {
        ctx.logger.error({ err, teamId, agentId }, 'team chat: follow-up of a run failed');
      }
      touch();
      pump(agentId);
      idlePreamble.warm(idle);
    });
  }

  /** What a run's end sets going: the task's settlement, its result to the lead, hand-overs in the reply. */
  function after(d: Delivery, h: RunHandle, o: RunOutcome): void {
    if (o.budgetStop) budget.haltChain(d.chain, d.agent.id);
    if (o.state === 'cancelled') return;
    const roster = loadRoster(domain, teamId);
    if (d.trigger === 'delegation' && d.taskId) settleTask(d, h, o, roster);
    if (o.state !== 'final') return;
    for (const to of handOvers(o.text, roster, d.agent.id)) {
      handOver(d, h, to, 'handover', `Message from ${d.agent.name}:\n${o.text}`, `mentioned by ${d.agent.name}`);
    }
  }

  function handOver(from: Delivery, h: RunHandle, to: RosterAgent, trigger: Trigger, message: string, reason: string): void {
    const d: Delivery = { agent: to, message, trigger, taskId: null, chain: from.chain, parentSpanId: h.spanId };
    if (!admit(d)) return;
    speakerSelected(d, from.agent.id, reason);
    push(d);
  }

  function settleTask(d: Delivery, h: RunHandle, o: RunOutcome, roster: TeamRoster): void {
    const taskId = d.taskId as string;
    claimed.delete(taskId);
    const task = domain.board.get(taskId);
    // Someone moved the task meanwhile (a person on the board, the agent itself through the tasks server): theirs to settle.
    if (task?.status === 'in_progress') {
      try {
        if (o.state === 'final') {
          domain.board.comment(taskId, { body: (o.text.trim() || '(no reply)').slice(0, COMMENT_MAX), authorAgentId: d.agent.id });
          domain.board.update(taskId, { status: 'done', actorAgentId: d.agent.id });
        } else {
          domain.board.comment(taskId, { body: `Run failed: ${o.error ?? 'unknown error'}`.slice(0, COMMENT_MAX), authorAgentId: d.agent.id });
          domain.board.update(taskId, { status: 'blocked', actorAgentId: d.agent.id });
        }
      } catch (err) {
        ctx.logger.warn({ err: messageOf(err), taskId }, 'team chat: could not settle a delegated task');
      }
    }
    if (o.state === 'final' && task && roster.lead && roster.lead.id !== d.agent.id) {
      handOver(d, h, roster.lead, 'result', resultMessage(task, d.agent.name, o.text), `result of task: ${task.title}`);
    }
    scan();
  }

  /** Delivers every delegation of the team that is ready and was never delivered. */
  function scan(): void {
    const roster = loadRoster(domain, teamId);
    const agents = new Map(addressable(roster).map((a) => [a.id, a]));
    const skip = new Set([...claimed, ...boundDropped]);
    for (const task of readyDelegations(domain.board, ctx.executions, teamId, new Set(agents.keys()), skip)) {
      deliverTask(task, agents.get(task.assigneeAgentId as string) as RosterAgent, roster);
    }
  }

  /**
   * Claims a ready delegation for its assignee and queues it. It joins the
   * chain (trace, turn bound) of its creator's latest run. A task from the
   * tasks server with no creator named (an unbound session: svc cannot know
   * which agent called) joins the lead's latest run instead, since the lead
   * is who hands out work; when that agent never ran in the team it starts a
   * chain of its own (`task-<id>`).
   */
  function deliverTask(task: Task, agent: RosterAgent, roster: TeamRoster): void {
    const creator = task.createdByAgentId ? domain.agents.get(task.createdByAgentId) : null;
    const chainOwner = creator ?? (task.createdByAgentId === null && task.origin === 'mcp' ? roster.lead : null);
    const lastRun = chainOwner ? ctx.executions.lastOf(teamId, chainOwner.id) : null;
    const noteKey = sessionKeyOf(roster.lead ?? agent, teamId);
    const chain = lastRun
      ? chainOf(lastRun.chainId, lastRun.traceId, noteKey)
      : chainOf(`task-${task.id}`, newTraceId(), noteKey);
    const message = taskMessage(task, senderOf(task, creator?.name ?? null));
    const d: Delivery = { agent, message, trigger: 'delegation', taskId: task.id, chain, parentSpanId: lastRun?.spanId ?? null };
    if (!admit(d)) {
      boundDropped.add(task.id);
      return;
    }
    try {
      domain.board.claim(task.id, agent.id);
    } catch (err) {
      // Another writer claimed or moved it first: it is theirs now.
      chain.runs--;
      ctx.logger.debug({ err: messageOf(err), taskId: task.id }, 'team chat: delegation not claimed');
      return;
    }
    claimed.add(task.id);
    speakerSelected(d, creator?.id ?? null, `task: ${task.title}`);
    push(d);
  }

  return {
    ingest(p) {
      touch();
      const parts = idlePreamble.take();
      const roster = parts?.roster ?? loadRoster(domain, teamId);
      const target = resolveTarget(roster, p.message, p.targetAgentId);
      const entryId = p.entryId ?? `user-${uuidv7(now())}`;
      const sessionKey = sessionKeyOf(target, teamId);
      const result = { agentId: target?.id ?? null, sessionKey, entryId };
      const rows = ctx.tx.run(() => {
        const written = ctx.entries.user({ teamId, agentId: target?.id ?? null, sessionKey, text: p.message, entryId });
        if (written.length > 0 && !target) ctx.entries.meta({ teamId, agentId: null, sessionKey, text: NO_AGENT_TEXT });
        return written;
      });
      // A repeated entryId (a client retry) writes nothing new and queues nothing new.
      if (rows.length === 0 || !target) return result;
      const chain = chainOf(entryId, newTraceId(), sessionKey);
      const d: Delivery = { agent: target, message: p.message, trigger: 'user', taskId: null, chain, parentSpanId: null };
      // Parts read while the team was idle, with nothing committed since but this entry: the preamble is made from them and it.
      if (admit(d)) push(d, { roster, text: parts ? (message) => preambleText(parts, message, rows) : undefined });
      return result;
    },

    boardChanged() {
      touch();
      scan();
    },

    exchange(p) {
      touch();
      const state: ExchangeState = { id: uuidv7(now()), stopped: false, handle: null, runs: 0 };
      exchanges.add(state);
      void runExchange(ctx, p, state, (roster, message) => textFor(roster, message))
        .catch((err: unknown) => ctx.logger.error({ err, teamId, exchangeId: state.id }, 'team chat: exchange failed'))
        .finally(() => {
          runs += state.runs;
          exchanges.delete(state);
          touch();
        });
      return { exchangeId: state.id };
    },

    admitSpawn(p) {
      touch();
      const chain = chainOf(p.chainId, p.traceId, p.noteKey);
      return admit({ agent: p.agent, message: '', trigger: 'spawn', taskId: p.taskId, chain, parentSpanId: p.parentSpanId });
    },

    async stop() {
      const counts = await stopTeam(ctx, teamId, { queues, running, exchanges, claimed });
      touch();
      return counts;
    },

    haltForBudget: budget.haltForBudget,
    meterTarget: budget.meterTarget,

    idle,
    lastActive: () => last,
    counts: () => ({
      running: running.size + [...exchanges].filter((e) => e.handle !== null).length,
      queued: [...queues.values()].reduce((n, q) => n + q.length, 0),
      runs: runs + [...exchanges].reduce((n, e) => n + e.runs, 0),
    }),
  };
}
