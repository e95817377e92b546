// A team orchestrator's side of budgets (issue 22; budget-halt.ts): finding
// the run a budget halt or a metered model call names, among the team's
// running turns and exchange turns, by its gateway session key. A halt also
// stops the rest of that message for the agent (haltChain, kept here);
// an exchange is one message, so a halted turn ends it.
import { isRunAgent, isRunSession, type BudgetStop } from './budget-halt.ts';
import type { MeteredTarget } from './call-meter.ts';
import type { TeamChatContext } from '../context.ts';
import type { ExchangeState } from '../room/exchange.ts';
import type { RunHandle } from '../runs/run.ts';
import { haltRun, meterTarget, noteEndedRun } from './run-budget.ts';
import type { BudgetHalt } from '../schemas.ts';
import { addressable, gatewaySessionKeyOf, loadRoster, sessionKeyOf } from '../routing/answerer.ts';
import type { Chain, Delivery } from '../work.ts';

export interface TeamBudgetHooks {
  haltForBudget(p: BudgetHalt): boolean;
  meterTarget(gatewaySessionKey: string): MeteredTarget | null;
  /** Drops the agent's queued deliveries of the chain and refuses its later ones (a budget halted it). */
  haltChain(chain: Pick<Chain, 'id'>, agentId: string): void;
  /** A budget halted the agent in that message: no further turn of it goes to the agent. */
  isHalted(chainId: string, agentId: string): boolean;
}

export function teamBudgetHooks(
  ctx: TeamChatContext,
  teamId: string,
  work: { running: Map<string, { delivery: Delivery; handle: RunHandle }>; exchanges: Set<ExchangeState>; queues: Map<string, Delivery[]> },
): TeamBudgetHooks {
  const { running, exchanges, queues } = work;
  /** `<chainId>\0<agentId>` of halted agents. */
  const halted = new Set<string>();
  const haltKey = (chainId: string, agentId: string) => `${chainId}\u0000${agentId}`;
  const haltChain = (chain: Pick<Chain, 'id'>, agentId: string) => {
    halted.add(haltKey(chain.id, agentId));
    const q = queues.get(agentId);
    if (q) queues.set(agentId, q.filter((d) => d.chain.id !== chain.id));
  };
  return {
    haltChain,
    isHalted: (chainId, agentId) => halted.has(haltKey(chainId, agentId)),
    haltForBudget(p) {
      const stop: BudgetStop = { budgetId: p.budgetId, budgetLabel: p.budgetLabel };
      for (const r of running.values()) {
        if (!isRunAgent(r.delivery.agent, p.agentId) || !isRunSession(r.handle.spec, p.sessionKey)) continue;
        haltChain(r.delivery.chain, r.delivery.agent.id);
        haltRun(ctx, r.handle, stop);
        return true;
      }
      for (const ex of exchanges) {
        const h = ex.handle;
        if (!h || !isRunAgent(h.spec.agent, p.agentId) || !isRunSession(h.spec, p.sessionKey)) continue;
        ex.stopped = true;
        haltRun(ctx, h, stop);
        return true;
      }
      // No run of that session is going: the refused one may have ended a moment ago.
      const agent = addressable(loadRoster(ctx.domain, teamId)).find((a) => isRunAgent(a, p.agentId));
      if (agent && isRunSession({ gatewaySessionKey: gatewaySessionKeyOf(agent, teamId), sessionKey: sessionKeyOf(agent, teamId) }, p.sessionKey)) {
        const chainId = noteEndedRun(ctx, teamId, agent, stop);
        if (chainId) haltChain({ id: chainId }, agent.id);
      }
      return false;
    },
    meterTarget(gatewaySessionKey) {
      for (const r of running.values()) {
        if (isRunSession(r.handle.spec, gatewaySessionKey)) return meterTarget(ctx, r.handle, () => haltChain(r.delivery.chain, r.delivery.agent.id));
      }
      for (const ex of exchanges) {
        const h = ex.handle;
        if (h && isRunSession(h.spec, gatewaySessionKey)) return meterTarget(ctx, h, () => (ex.stopped = true));
      }
      return null;
    },
  };
}
