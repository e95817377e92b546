// A team orchestrator's side of budgets (issue 22; budget-halt.ts): finding
// the run a budget halt or a metered model call names, among the team's
// running turns and exchange turns, by its gateway session key. A halt also
// stops the rest of that message for the agent (the orchestrator's haltChain);
// an exchange is one message, so a halted turn ends it.
import { isRunAgent, isRunSession, type BudgetStop } from './budget-halt.ts';
import type { MeteredTarget } from './call-meter.ts';
import type { TeamChatContext } from './context.ts';
import type { ExchangeState } from './exchange.ts';
import type { RunHandle } from './run.ts';
import { haltRun, meterTarget, noteEndedRun } from './run-budget.ts';
import type { BudgetHalt } from './schemas.ts';
import { addressable, gatewaySessionKeyOf, loadRoster, sessionKeyOf } from './target.ts';
import type { Chain, Delivery } from './work.ts';

export interface TeamBudgetHooks {
  haltForBudget(p: BudgetHalt): boolean;
  meterTarget(gatewaySessionKey: string): MeteredTarget | null;
}

export function teamBudgetHooks(
  ctx: TeamChatContext,
  teamId: string,
  work: { running: Map<string, { delivery: Delivery; handle: RunHandle }>; exchanges: Set<ExchangeState> },
  haltChain: (chain: Pick<Chain, 'id'>, agentId: string) => void,
): TeamBudgetHooks {
  const { running, exchanges } = work;
  return {
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
