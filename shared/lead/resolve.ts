// Which agent is the lead (spec "GET /api/lead/override"): the stored
// override when set, then a native-runtime lead, then a gateway-runtime lead.
// A lead candidate is a live (not archived) agent whose role is `lead`; the
// oldest wins a tier. A non-null override always reports tier `override`,
// even when its agent has since been archived (the operator chose it).
import type { AgentStore } from '../agents/store.ts';
import type { Agent } from '../agents/types.ts';
import type { Db } from '../db/open.ts';
import type { SettingsTable } from '../db/settings-table.ts';
import { notFound } from '../errors.ts';
import { LEAD_KEYS } from '../setting-keys.ts';

export type LeadTier = 'override' | 'native' | 'gateway';

export const LEAD_TIER_RUNTIMES = ['native', 'gateway'] as const;

export interface EffectiveLead {
  agentId: string;
  name: string | null;
  /** The display-name override, when one is set. */
  displayName: string | null;
  runtime: string | null;
  tier: LeadTier;
}

export interface LeadOverrideView {
  /** The stored override (null when unset or cleared). */
  agentId: string | null;
  effective: EffectiveLead | null;
  tier: LeadTier | null;
}

export interface LeadResolver {
  view(): LeadOverrideView;
  /** Stores or clears the override; not_found for an agent that is not live. */
  setOverride(agentId: string | null): LeadOverrideView;
  effective(): EffectiveLead | null;
}

export function createLeadResolver(db: Db, settings: SettingsTable, agents: AgentStore): LeadResolver {
  const candidateStmt = db.prepare(
    `SELECT id FROM agents WHERE role = 'lead' AND runtime = ? AND is_archived = 0 ORDER BY created_at, id LIMIT 1`,
  ).pluck();

  const describe = (agentId: string, agent: Agent | null, tier: LeadTier): EffectiveLead => ({
    agentId,
    name: agent?.name ?? null,
    displayName: settings.get(LEAD_KEYS.displayName(agentId)),
    runtime: agent?.runtime ?? null,
    tier,
  });

  const storedOverride = (): string | null => {
    const v = settings.get(LEAD_KEYS.override);
    return v === null || v === '' ? null : v;
  };

  const effective = (): EffectiveLead | null => {
    const override = storedOverride();
    if (override !== null) return describe(override, agents.get(override), 'override');
    for (const runtime of LEAD_TIER_RUNTIMES) {
      const id = candidateStmt.get(runtime) as string | undefined;
      if (id !== undefined) return describe(id, agents.get(id), runtime);
    }
    return null;
  };

  const view = (): LeadOverrideView => {
    const eff = effective();
    return { agentId: storedOverride(), effective: eff, tier: eff?.tier ?? null };
  };

  return {
    view,
    effective,
    setOverride(agentId) {
      if (agentId !== null && !agents.getLive(agentId)) throw notFound('agent not found');
      // The spec stores an empty value when cleared.
      settings.set(LEAD_KEYS.override, agentId ?? '');
      return view();
    },
  };
}
