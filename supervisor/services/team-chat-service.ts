// The front door's side of team chat (docs/architecture.md, "Threads").
// Messages, stops and exchanges go to the team-chat host: in the team-chat
// worker when workers run (the orchestrators and their gateway connection
// never share the front door's thread), in this thread otherwise (inject()
// tests): see team-chat-channel.ts. What the host reports is handled here,
// the same way either way:
//   committed rows  -> the live fan-out (hubs), as this thread's own commits;
//   delta / status  -> the team's tier-2 frames (http/team-stream-hub.ts).
// Board rows and room posts of a team become frames too, and board rows a
// `boardChanged` for the host (team-stream-sources.ts). The gateway target goes
// to the host again whenever the gateway settings change.
import type { EventOf, ResultOf } from '../../shared/channels/contract.ts';
import type { ChatRow } from '../../shared/db/chat-messages.ts';
import type { SettingsTable } from '../../shared/db/settings-table.ts';
import type { Domain } from '../../shared/domain.ts';
import type { EventRow } from '../../shared/events/types.ts';
import type { Redactor } from '../../shared/redact.ts';
import type { BudgetHalt, ChatIngest, ExchangeStart } from '../../shared/team-chat/schemas.ts';
import type { GatewayLink } from './gateway-link.ts';
import type { CachedSettingsService } from './settings-service.ts';
import type { StreamHub } from './stream-hub.ts';
import { listenForBoardAndRoom, type TeamFrameHub } from './team-stream-sources.ts';
import { createTeamChatReads, type TeamChatReads } from './team-chat-reads.ts';
import { inThreadChannel, workerChannel, type C, type ConfigurePayload, type ChannelDeps, type TeamChatEmitHandler } from './team-chat-channel.ts';

export interface TeamChatService {
  /** The per-team tier-2 frames the stream route subscribes to. */
  readonly frames: TeamFrameHub;
  /** What the stream and room routes read. */
  readonly reads: TeamChatReads;
  /** Persists the user entry (the host mints its id when the client gave none) and queues the delivery. */
  ingest(p: ChatIngest): Promise<ResultOf<C, 'ingest'>>;
  stop(teamId: string): Promise<ResultOf<C, 'stop'>>;
  exchange(p: ExchangeStart): Promise<ResultOf<C, 'exchange'>>;
  /**
   * A budget reached its cap during a run of `agentId` (docs/team-chat.md, "Budgets"): the run of that gateway
   * session key is aborted, a `system`/`meta` entry names the budget, no further turn of that message
   * goes to the agent. An unknown session is a no-op. Never rejects: the refusal or the pause already
   * stopped the spend; a worker that cannot be reached is logged.
   */
  haltForBudget(input: BudgetHalt): Promise<void>;
  /** The host's counters (health's `workers`), or null when the worker does not run or answer. */
  stats(): Promise<ResultOf<C, 'stats'> | null>;
  close(): Promise<void>;
}

export interface TeamChatServiceOptions extends ChannelDeps {
  domain: Pick<Domain, 'teams' | 'agents' | 'lead' | 'board'>;
  hubs: { events: StreamHub<EventRow>; chat: StreamHub<ChatRow> };
  frames: TeamFrameHub;
  settings: Pick<CachedSettingsService, 'resolved'>;
  /** The team-scoped settings (the chat gate). */
  settingsTable: Pick<SettingsTable, 'get'>;
  gatewayLink: Pick<GatewayLink, 'onReconfigure'>;
  redactor: Redactor;
  startWorker: boolean;
}

export function createTeamChatService(opts: TeamChatServiceOptions): TeamChatService {
  const { frames, hubs, logger } = opts;
  const log = logger.child({ component: 'team-chat' });
  const reads = createTeamChatReads(opts.db, opts.domain);
  /** Agents the host last reported `running`, per team: they get an `error` frame if the worker dies. */
  const running = new Map<string, Set<string>>();

  const emit: TeamChatEmitHandler = (event, payload) => {
    if (event === 'committed') {
      const p = payload as EventOf<C, 'committed'>;
      if (p.chat.length > 0) hubs.chat.offerCommitted(p.chat);
      if (p.events.length > 0) hubs.events.offerCommitted(p.events);
    } else if (event === 'delta') {
      const p = payload as EventOf<C, 'delta'>;
      frames.publish(p.teamId, 'delta', { sessionKey: p.sessionKey, runId: p.runId, text: p.text, agentId: p.agentId });
    } else if (event === 'status') {
      const p = payload as EventOf<C, 'status'>;
      let agents = running.get(p.teamId);
      if (p.status === 'running') {
        if (!agents) running.set(p.teamId, (agents = new Set()));
        agents.add(p.agentId);
      } else if (agents) {
        agents.delete(p.agentId);
        if (agents.size === 0) running.delete(p.teamId);
      }
      frames.publish(p.teamId, 'status', { agentId: p.agentId, status: p.status });
    }
  };

  const configurePayload = (): ConfigurePayload => {
    const r = opts.settings.resolved();
    // A gateway URL that moved to another origin without a token of its own gets no connect (no token, no device signature).
    return { gateway: r.gatewayUrl && r.tokenNeededFor === undefined ? { url: r.gatewayUrl, token: r.token } : null, secrets: opts.redactor.secrets() };
  };

  const channel = opts.startWorker ? workerChannel(opts, emit, configurePayload, running, log) : inThreadChannel(opts, emit, configurePayload);
  const unfollow = opts.gatewayLink.onReconfigure(() => channel.configure());
  const unlisten = listenForBoardAndRoom({
    events: hubs.events,
    frames,
    board: opts.domain.board,
    reads,
    settingsTable: opts.settingsTable,
    boardChanged: (teamId, taskId) => channel.boardChanged({ teamId, taskId }),
    log,
  });

  return {
    frames,
    reads,
    ingest: (p) => channel.call('ingest', p),
    stop: (teamId) => channel.call('stop', { teamId }),
    exchange: (p) => channel.call('exchange', p),
    haltForBudget: (p) =>
      channel.call('haltForBudget', p).then(
        ({ halted }) => log.debug({ agentId: p.agentId, budgetId: p.budgetId, halted }, 'team chat: budget halt'),
        (err: unknown) => log.warn({ err, agentId: p.agentId, budgetId: p.budgetId }, 'team chat: budget halt did not reach the worker'),
      ),
    stats: () => channel.stats(),
    async close() {
      unfollow();
      unlisten();
      await channel.close();
    },
  };
}
