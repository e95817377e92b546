// Applies a routing plan (plan.ts) to the gateway's files, in the order that
// never leaves the gateway naming something that is not there: keys and
// tokens into svc's vault and the registry the endpoint reads, then one .env
// write (new tokens and restored keys in, moved keys and old tokens out),
// then the config (through the running gateway's own `config.patch` when
// svc is connected, else the file, copied to `.svc-bak` first, as the
// delegation lists are written), and last, once the gateway has had time to
// take the new config, svc stops accepting what the old one used.
import { gatewayPaths } from '../paths.ts';
import { readGatewayConfig, readGatewayEnv } from '../settings/gateway-files.ts';
import { readAuthProfiles } from '../gateway/auto-configure.ts';
import { child, editGatewayConfig, getPath, isJsonObject, type ConfigLog, type JsonObject } from '../gateway/config-file.ts';
import { updateGatewayEnv } from '../gateway/env-file.ts';
import { backUpConfig, patchThroughGateway, type GatewayCall } from '../gateway/subagents-config.ts';
import { emptyRecord, setOwn } from '../object-keys.ts';
import { existsSync } from 'node:fs';
import { planRouting, tokenEnvVar, type AgentRoute, type ConfigOp, type RoutingPlan } from './plan.ts';
import type { RegistryStore } from './registry.ts';

/** What a sync needs from svc: its model tokens (purpose `model`, bound to an agent). */
export interface ModelTokens {
  mint(agentId: string): string;
  /** The live token's binding id when `token` is a model token of `agentId`, else null. */
  verify(agentId: string, token: string): string | null;
  revokeToken(token: string): void;
}

export interface SyncDeps {
  stateDir: string;
  registry: RegistryStore;
  vault: { get(name: string): string | null; set(name: string, value: string): void; delete(name: string): boolean };
  tokens: ModelTokens;
  log: ConfigLog;
  /** The running gateway when svc is connected to it. */
  gateway: { connected(): boolean; call: GatewayCall };
  /** Which routed agents stand for the defaults' model (kept between syncs). */
  fromDefault: { read(): string[]; write(ids: string[]): void };
}

export interface SyncOutcome {
  agents: AgentRoute[];
  /** What changed (config paths, .env names; never values). */
  changed: { config: number; envSet: string[]; envRemoved: string[]; minted: string[] };
  via: 'gateway' | 'file' | 'none';
}

export const SYNC_ERRORS = {
  noGateway: 'no gateway config to route: configure the gateway first',
  corrupt: 'openclaw.json is not valid JSON: svc did not change model routing',
  noPort: "svc's own port is not known yet",
} as const;

/**
 * The gateway's agent ids: agents.list when connected, plus the config's
 * entries (an agent created a moment ago is in the file before the
 * gateway's list shows it); without a connection, the entries and `main`.
 */
export async function gatewayAgentIds(deps: Pick<SyncDeps, 'gateway'>, config: unknown): Promise<string[]> {
  const entries = getPath(config, ['agents', 'entries']);
  const fromConfig = isJsonObject(entries) ? Object.keys(entries) : [];
  if (deps.gateway.connected()) {
    const list = (await deps.gateway.call('agents.list', {})) as { agents?: Array<{ id?: unknown }> } | null;
    const ids = (list?.agents ?? []).map((a) => a.id).filter((id): id is string => typeof id === 'string' && id !== '');
    if (ids.length > 0) return [...new Set([...ids, ...fromConfig])];
  }
  return [...new Set(['main', ...fromConfig])];
}

/** The ops as one JSON merge patch (null removes a key), for `config.patch`. */
export function mergePatchOf(ops: readonly ConfigOp[]): JsonObject {
  const root: JsonObject = {};
  for (const { path, value } of ops) {
    let node = root;
    for (const key of path.slice(0, -1)) node = child(node, key);
    setOwn(node, path[path.length - 1] as string, value === undefined ? null : value);
  }
  return root;
}

/** Applies the ops to a config object in place. */
export function applyOps(config: JsonObject, ops: readonly ConfigOp[]): void {
  for (const { path, value } of ops) {
    const parentPath = path.slice(0, -1);
    const key = path[path.length - 1] as string;
    if (value === undefined) {
      const parent = getPath(config, parentPath);
      if (isJsonObject(parent)) delete parent[key];
      continue;
    }
    let node = config;
    for (const k of parentPath) node = child(node, k);
    setOwn(node, key, value);
  }
}

async function writeConfig(deps: SyncDeps, ops: readonly ConfigOp[]): Promise<'gateway' | 'file' | 'none'> {
  if (ops.length === 0) return 'none';
  // A dotted id cannot be named in a config path; the file write takes it.
  if (deps.gateway.connected() && !ops.some((op) => op.path.some((k) => k.includes('.')))) {
    try {
      backUpConfig(deps.stateDir);
      await patchThroughGateway(deps.gateway.call, { raw: JSON.stringify(mergePatchOf(ops)), replacePaths: [] }, 'svc: model routing');
      return 'gateway';
    } catch (err) {
      deps.log.warn({ error: err instanceof Error ? err.message : String(err) }, 'config.patch of the model routing failed; writing the file instead');
    }
  }
  editGatewayConfig(deps.stateDir, deps.log, (config) => {
    backUpConfig(deps.stateDir);
    applyOps(config, ops);
  });
  return 'file';
}

/** Reads the files, plans, applies. Throws with a SYNC_ERRORS message when nothing can be done. */
export interface SyncOptions {
  enabled: boolean;
  svcPort: number | null;
  /**
   * Runs the last step (removing what the old config named: keys, tokens,
   * the registry when off) later. The gateway answers config.patch before
   * its runs use the new config: a run started in between still calls
   * through the old providers, and must find their key or token alive.
   * Default: at once.
   */
  settle?: (cleanup: () => void) => void;
}

export async function syncRouting(deps: SyncDeps, opts: SyncOptions): Promise<SyncOutcome> {
  const read = readGatewayConfig(deps.stateDir);
  if (read.corrupt) throw new Error(SYNC_ERRORS.corrupt);
  if (!read.config) {
    if (!existsSync(gatewayPaths(deps.stateDir).configFile)) throw new Error(SYNC_ERRORS.noGateway);
    throw new Error(SYNC_ERRORS.corrupt);
  }
  if (opts.enabled && opts.svcPort === null) throw new Error(SYNC_ERRORS.noPort);
  const env = readGatewayEnv(deps.stateDir);
  const plan: RoutingPlan = planRouting({
    enabled: opts.enabled,
    config: read.config,
    env,
    agentIds: await gatewayAgentIds(deps, read.config),
    registry: deps.registry.read(),
    svcPort: opts.svcPort ?? 0,
    vaultGet: (name) => deps.vault.get(name),
    oauthProviders: new Set(readAuthProfiles(deps.stateDir, deps.log).filter((p) => p.type === 'oauth').map((p) => p.provider)),
    tokenVerifies: (agentId, token) => deps.tokens.verify(agentId, token) !== null,
    fromDefault: new Set(deps.fromDefault.read()),
  });
  const envChanges = emptyRecord<string | null>();
  for (const name of plan.envAfter) setOwn(envChanges, name, null);
  Object.assign(envChanges, plan.envBefore);
  for (const agentId of plan.mint) {
    const token = deps.tokens.mint(agentId);
    deps.vault.set(tokenEnvVar(agentId), token);
    setOwn(envChanges, tokenEnvVar(agentId), token);
  }
  for (const [name, value] of Object.entries(plan.vaultSet)) deps.vault.set(name, value);
  // The registry before the config: the first call through svc must find its upstream.
  if (opts.enabled) deps.registry.write(plan.registry);
  deps.fromDefault.write(plan.fromDefault);
  // One .env write, before the config: the gateway keeps every variable it
  // has read in its environment, so a run still on the old config finds the
  // old key or token after its line is gone from the file, while the new
  // config's names must be there when it loads.
  if (Object.keys(envChanges).length > 0) updateGatewayEnv(deps.stateDir, envChanges);
  const via = await writeConfig(deps, plan.configOps);
  const cleanup = () => {
    for (const token of plan.revoke) deps.tokens.revokeToken(token);
    for (const name of plan.vaultDelete) deps.vault.delete(name);
    if (!opts.enabled) deps.registry.write(plan.registry);
  };
  // Only a patch svc made to a running gateway has runs that may still be on the old config (and call svc with it).
  if (opts.settle && via === 'gateway') opts.settle(cleanup);
  else cleanup();
  return {
    agents: plan.agents,
    changed: { config: plan.configOps.length, envSet: Object.keys(envChanges).filter((n) => envChanges[n] !== null), envRemoved: plan.envAfter, minted: plan.mint },
    via,
  };
}
