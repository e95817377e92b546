// One bounded peer-chat exchange (docs/team-chat.md, "The peer-chat room"
// "The peer-chat room"): `fromAgentId` is asked to open a conversation with
// `toAgentId` on a topic; then they alternate, each given the other's last
// reply, for `turns` replies in all. Each turn is a run in a gateway session
// of its own (`agent:<id>:team:<teamId>:peer:<exchangeId>`), so it never
// mixes with the agent's team transcript, with its executions row and cost;
// each reply is posted to the team's room with the exchange's id. A failed
// or stopped turn ends the exchange.
import { POST_TEXT_MAX } from './posts.ts';
import type { TeamChatContext } from '../context.ts';
import { newTraceId, startRun, type RunHandle } from '../runs/run.ts';
import { teamSessionKey, type ExchangeStart } from '../schemas.ts';
import { gatewaySessionKeyOf, loadRoster, type RosterAgent, type TeamRoster } from '../routing/answerer.ts';

export interface ExchangeState {
  id: string;
  /** Set by a stop: no further turn starts. */
  stopped: boolean;
  /** The turn in flight, for a stop to abort. */
  handle: RunHandle | null;
  /** Runs started so far. */
  runs: number;
}

export const openingMessage = (to: RosterAgent, topic: string): string => `Start a conversation with ${to.name} about: ${topic}`;

export async function runExchange(
  ctx: TeamChatContext,
  p: ExchangeStart,
  state: ExchangeState,
  textFor: (roster: TeamRoster, message: string) => string,
): Promise<void> {
  const agentOf = (id: string): RosterAgent | null => {
    const a = ctx.domain.agents.get(id);
    return a ? { id: a.id, name: a.name, gatewayId: a.gatewayId } : null;
  };
  const from = agentOf(p.fromAgentId);
  const to = agentOf(p.toAgentId);
  if (!from || !to) {
    ctx.logger.warn({ exchangeId: state.id }, 'team chat exchange: an agent is gone; nothing sent');
    return;
  }
  const suffix = `:peer:${state.id}`;
  const traceId = newTraceId();
  let parentSpanId: string | null = null;
  let message = openingMessage(to, p.topic);
  for (let turn = 0; turn < p.turns && !state.stopped; turn++) {
    const speaker = turn % 2 === 0 ? from : to;
    const handle = startRun(ctx, {
      teamId: p.teamId,
      agent: speaker,
      sessionKey: `${teamSessionKey(speaker.id, p.teamId)}${suffix}`,
      gatewaySessionKey: gatewaySessionKeyOf(speaker, p.teamId, suffix),
      text: textFor(loadRoster(ctx.domain, p.teamId), message),
      trigger: 'exchange',
      taskId: null,
      chainId: state.id,
      traceId,
      parentSpanId,
      transcript: false,
    });
    state.handle = handle;
    state.runs++;
    const outcome = await handle.done;
    state.handle = null;
    if (outcome.state !== 'final') return;
    const text = outcome.text.trim() === '' ? '(no reply)' : outcome.text.slice(0, POST_TEXT_MAX);
    ctx.posts.post({ teamId: p.teamId, authorAgentId: speaker.id, text, emitEvent: true, exchangeId: state.id });
    message = outcome.text;
    parentSpanId = handle.spanId;
  }
}
