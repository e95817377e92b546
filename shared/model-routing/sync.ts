// Model routing as one part of what svc wires into the gateway (the
// reconciler, shared/gateway-wiring/, applies it with the other parts): the
// plan (plan.ts) over the gateway's config and .env as the reconciler read
// them, with what must happen before the gateway sees the new config done
// here (keys and tokens into svc's vault, the registry the endpoint reads),
// and what the files must change returned: one .env change set (new tokens
// and restored keys in, moved keys and old tokens out) and the config ops.
// The last step, run once the gateway has had time to take the new config,
// is returned as `cleanup`: svc stops accepting what the old config used.
import { readAuthProfiles } from '../gateway/auto-configure.ts';
import { getPath, isJsonObject, type ConfigLog, type JsonObject } from '../gateway/config-file.ts';
import type { GatewayReach } from '../gateway/config-rpc.ts';
import { emptyRecord, setOwn } from '../object-keys.ts';
import { planRouting, type AgentRoute, type ConfigOp, type RoutingPlan } from './plan.ts';
import type { RegistryStore } from './registry.ts';
import { fromDefaultSets, type FromDefaultStore } from './from-default.ts';
import type { TokenStates } from './token-names.ts';

/** What a sync needs from svc: its model tokens (purpose `model`, bound to an agent). */
export interface ModelTokens {
  mint(agentId: string): string;
  /** The live token's binding id when `token` is a model token of `agentId`, else null. */
  verify(agentId: string, token: string): string | null;
  revokeToken(token: string): void;
}

export interface RoutingDeps {
  /** The gateway's state folder as the reconciler found it (auth profiles are read there). */
  stateDir: string;
  registry: RegistryStore;
  vault: { get(name: string): string | null; set(name: string, value: string): void; delete(name: string): boolean };
  tokens: ModelTokens;
  log: ConfigLog;
  /** Which routed agents' model and fallbacks stand for the defaults' (kept between syncs). */
  fromDefault: FromDefaultStore;
  /** Each agent's token generation and revocation (rotate and revoke); absent: every agent on its first token, live. */
  tokenStates?: { read(): TokenStates };
}

export const SYNC_ERRORS = {
  noPort: "svc's own port is not known yet",
} as const;

/**
 * The gateway's agent ids: agents.list when connected, plus the config's
 * entries (an agent created a moment ago is in the file before the
 * gateway's list shows it); without a connection, the entries and `main`.
 */
export async function gatewayAgentIds(deps: { gateway: GatewayReach }, config: unknown): Promise<string[]> {
  const entries = getPath(config, ['agents', 'entries']);
  const fromConfig = isJsonObject(entries) ? Object.keys(entries) : [];
  if (deps.gateway.connected()) {
    const list = (await deps.gateway.call('agents.list', {})) as { agents?: Array<{ id?: unknown }> } | null;
    const ids = (list?.agents ?? []).map((a) => a.id).filter((id): id is string => typeof id === 'string' && id !== '');
    if (ids.length > 0) return [...new Set([...ids, ...fromConfig])];
  }
  return [...new Set(['main', ...fromConfig])];
}

/** What the reconciler read of the gateway for this round. */
export interface RoutingRead {
  config: JsonObject;
  env: Readonly<Record<string, string>>;
  /** The gateway's agent ids (gatewayAgentIds). */
  agentIds: readonly string[];
}

export interface RoutingOptions {
  enabled: boolean;
  svcPort: number | null;
}

/** The routing part of one reconcile: what to write, and what to retire once the gateway uses the new config. */
export interface RoutingStep {
  agents: AgentRoute[];
  configOps: ConfigOp[];
  /** .env changes: a string sets, null removes. */
  envChanges: Record<string, string | null>;
  minted: string[];
  /** Revokes the old tokens and drops what the old config used (the registry too when off). */
  cleanup: () => void;
}

/** Plans routing over what the reconciler read, and does the vault, token and registry writes that must precede the files. Throws with SYNC_ERRORS.noPort when svc's port is not known yet. */
export function prepareRouting(deps: RoutingDeps, read: RoutingRead, opts: RoutingOptions): RoutingStep {
  if (opts.enabled && opts.svcPort === null) throw new Error(SYNC_ERRORS.noPort);
  const plan: RoutingPlan = planRouting({
    enabled: opts.enabled,
    config: read.config,
    env: read.env,
    agentIds: read.agentIds,
    registry: deps.registry.read(),
    svcPort: opts.svcPort ?? 0,
    vaultGet: (name) => deps.vault.get(name),
    oauthProviders: new Set(readAuthProfiles(deps.stateDir, deps.log).filter((p) => p.type === 'oauth').map((p) => p.provider)),
    tokenVerifies: (agentId, token) => deps.tokens.verify(agentId, token) !== null,
    ...fromDefaultSets(deps.fromDefault.read()),
    tokenStates: deps.tokenStates?.read() ?? {},
  });
  const envChanges = emptyRecord<string | null>();
  for (const name of plan.envAfter) setOwn(envChanges, name, null);
  Object.assign(envChanges, plan.envBefore);
  for (const agentId of plan.mint) {
    const token = deps.tokens.mint(agentId);
    const name = plan.tokenVars[agentId] as string;
    deps.vault.set(name, token);
    setOwn(envChanges, name, token);
  }
  for (const [name, value] of Object.entries(plan.vaultSet)) deps.vault.set(name, value);
  // The registry before the config: the first call through svc must find its upstream.
  if (opts.enabled) deps.registry.write(plan.registry);
  deps.fromDefault.write({ primary: plan.fromDefault, fallbacks: plan.fallbacksFromDefault, subagents: plan.subagentsFromDefault });
  return {
    agents: plan.agents,
    configOps: plan.configOps,
    envChanges,
    minted: plan.mint,
    cleanup: () => {
      for (const token of plan.revoke) deps.tokens.revokeToken(token);
      for (const name of plan.vaultDelete) deps.vault.delete(name);
      if (!opts.enabled) deps.registry.write(plan.registry);
    },
  };
}
