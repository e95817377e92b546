// The rules of a message's chain (docs/team-chat.md, "How work spreads"; the
// orchestrator applies them, orchestrator.ts): each delivery counts against
// the chain's turn bound, and past it is dropped with a `turn_bound_hit`
// event and, once per chain, a note; a delivery that goes ahead names its
// speaker with a `speaker_selected` event.
import type { TeamChatContext } from '../context.ts';
import type { Delivery } from '../work.ts';

/** Counts the delivery against its chain's bound; false (the event, the note once) past it. */
export function admitToChain(ctx: TeamChatContext, teamId: string, d: Delivery): boolean {
  const { chain } = d;
  if (chain.runs < ctx.turnBound) {
    chain.runs++;
    return true;
  }
  ctx.tx.run(() => {
    ctx.eventLog.append({
      kind: 'turn_bound_hit',
      teamId,
      agentId: d.agent.id,
      taskId: d.taskId,
      traceId: chain.traceId,
      parentSpanId: d.parentSpanId,
      correlationId: chain.id,
      data: { chainId: chain.id, bound: ctx.turnBound, dropped: { agentId: d.agent.id, trigger: d.trigger } },
    });
    if (!chain.hit) {
      ctx.entries.meta({
        teamId,
        agentId: null,
        sessionKey: chain.noteKey,
        text: `Turn bound reached: one message may start at most ${ctx.turnBound} runs; the ${d.trigger} to ${d.agent.name} was not delivered.`,
      });
    }
  });
  chain.hit = true;
  return false;
}

/** Who speaks next and why (`from` null: the user or the board). */
export function selectSpeaker(ctx: TeamChatContext, teamId: string, d: Delivery, fromId: string | null, reason: string): void {
  ctx.eventLog.append({
    kind: 'speaker_selected',
    teamId,
    agentId: d.agent.id,
    taskId: d.taskId,
    traceId: d.chain.traceId,
    parentSpanId: d.parentSpanId,
    correlationId: d.chain.id,
    data: { from: fromId, to: d.agent.id, reason, trigger: d.trigger },
  });
}
