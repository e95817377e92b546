// Model routing as a service (issue 22, docs/model-routing.md): the setting
// `model-routing:enabled` (default on), one sync at a time (routes and the
// gateway connecting call sync(reason); a failure never rejects, it shows
// in lastSync), the view GET /api/system/model-routing answers, and the
// names of real keys left in the gateway's files for the health check.
import { existsSync } from 'node:fs';
import type { AgentTokenStore } from '../../shared/agent-tokens/index.ts';
import type { SettingsTable } from '../../shared/db/settings-table.ts';
import { messageOf } from '../../shared/errors.ts';
import { readAuthProfiles } from '../../shared/gateway/auto-configure.ts';
import type { GatewayCall } from '../../shared/gateway/subagents-config.ts';
import type { Logger } from '../../shared/log.ts';
import { gatewayPaths } from '../../shared/paths.ts';
import { keysInGatewayFiles } from '../../shared/model-routing/gateway-keys.ts';
import { createRegistryStore, type RegistryStore } from '../../shared/model-routing/registry.ts';
import { ENABLED_KEY, FROM_DEFAULT_KEY, routingView, type ModelRoutingView } from '../../shared/model-routing/status.ts';
import { gatewayAgentIds, SYNC_ERRORS, syncRouting, type ModelTokens } from '../../shared/model-routing/sync.ts';
import { readGatewayConfig, readGatewayEnv } from '../../shared/settings/gateway-files.ts';
import type { Vault } from '../../shared/vault/index.ts';

export type { ModelRoutingView } from '../../shared/model-routing/status.ts';

export interface ModelRoutingService {
  /** Where the model endpoint finds each agent's upstream. */
  registry: RegistryStore;
  enabled(): boolean;
  /** Applies routing (on or off) to the gateway's files; never rejects. */
  sync(reason: string): Promise<void>;
  /** Stores the setting, then syncs. */
  setEnabled(enabled: boolean, reason: string): Promise<void>;
  /** Whether there is a gateway to route: svc is connected to one, or its openclaw.json exists. */
  hasGateway(): boolean;
  view(): Promise<ModelRoutingView>;
  /** For the health check: routing is on and applied (some agent routed), and the names of real keys the gateway's files still hold. */
  keysLeftInGateway(): { active: boolean; names: string[] };
  /** The gateway link's state: a gateway svc routes gets its routing re-applied on each connect. */
  gatewayStatus(connected: boolean): void;
  /** svc listens now (its port is known): a connect sync that had to wait runs. */
  listening(): void;
}

export interface ModelRoutingDeps {
  stateDir: string;
  settingsTable: Pick<SettingsTable, 'get' | 'set'>;
  vault: Pick<Vault, 'get' | 'set' | 'delete'>;
  agentTokens: AgentTokenStore;
  logger: Logger;
  redact: (s: string) => string;
  gateway: { connected(): boolean; call: GatewayCall };
  boundPort: () => number | null;
  now?: () => number;
  /** How long after a config.patch svc still accepts what the old config used (tokens, the registry when off; default SETTLE_MS). */
  settleMs?: number;
}

/** The gateway applies a patch (debounced, possibly restarting a part of itself) after it answered; runs started meanwhile use the old config. */
export const SETTLE_MS = 10_000;

export function createModelRoutingService(deps: ModelRoutingDeps): ModelRoutingService {
  const { stateDir, settingsTable, vault, agentTokens, logger, gateway, now = Date.now } = deps;
  const registry = createRegistryStore(settingsTable, vault, logger);
  const tokens: ModelTokens = {
    mint: (agentId) => agentTokens.mint('model', { agentId }).token,
    verify: (agentId, token) => {
      const binding = agentTokens.verify('model', token);
      return binding && binding.agentId === agentId ? binding.id : null;
    },
    revokeToken: (token) => {
      const binding = agentTokens.verify('model', token);
      if (binding) agentTokens.revoke(binding.id);
    },
  };
  const fromDefault = {
    read: (): string[] => {
      const text = settingsTable.get(FROM_DEFAULT_KEY);
      if (text === null) return [];
      try {
        const ids: unknown = JSON.parse(text);
        return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
      } catch (err) {
        logger.warn({ key: FROM_DEFAULT_KEY, error: messageOf(err) }, 'model-routing setting is not JSON; treating every routed model as explicit');
        return [];
      }
    },
    write: (ids: string[]) => void settingsTable.set(FROM_DEFAULT_KEY, JSON.stringify(ids)),
  };
  let lastSync: ModelRoutingView['lastSync'] = null;
  // The last sync's deferred step: run when its time comes, or before the next sync plans.
  let pending: { cleanup: () => void; timer: NodeJS.Timeout } | null = null;
  const runPending = () => {
    const p = pending;
    pending = null;
    if (!p) return;
    clearTimeout(p.timer);
    try {
      p.cleanup();
    } catch (err) {
      // The next sync plans the same removals again from the files.
      logger.warn({ error: deps.redact(messageOf(err)) }, 'retiring what the previous model routing used failed; the next sync retries');
    }
  };
  const settle = (cleanup: () => void) => {
    const timer = setTimeout(runPending, deps.settleMs ?? SETTLE_MS);
    timer.unref();
    pending = { cleanup, timer };
  };
  let chain: Promise<void> = Promise.resolve();
  const enabled = () => settingsTable.get(ENABLED_KEY) !== 'false';
  const endpoint = () => {
    const port = deps.boundPort();
    return port === null ? null : `http://127.0.0.1:${port}/model`;
  };

  const runSync = async (reason: string): Promise<void> => {
    runPending();
    try {
      const outcome = await syncRouting(
        { stateDir, registry, vault, tokens, log: logger, gateway, fromDefault },
        { enabled: enabled(), svcPort: deps.boundPort(), settle },
      );
      lastSync = { at: new Date(now()).toISOString(), ok: true, error: null };
      logger.info({ reason, via: outcome.via, ...outcome.changed, routed: outcome.agents.filter((a) => a.reason === null).map((a) => a.agentId) }, 'model routing synced');
    } catch (err) {
      const error = deps.redact(messageOf(err));
      lastSync = { at: new Date(now()).toISOString(), ok: false, error };
      // No gateway configured yet is the ordinary state of a fresh svc, not a failure worth a warning.
      const level = error === SYNC_ERRORS.noGateway ? 'debug' : 'warn';
      logger[level]({ reason, error }, 'model routing sync failed; the gateway keeps its previous model settings');
    }
  };

  const sync = (reason: string): Promise<void> => {
    // One at a time: two syncs planning from the same files would mint twice.
    chain = chain.then(() => runSync(reason));
    return chain;
  };
  // Agents created or keys added by hand while svc was away are routed at the
  // next connect. Before svc listens its port is unknown: that sync waits.
  let wasConnected = false;
  let syncWhenListening = false;

  return {
    registry,
    enabled,
    sync,
    async setEnabled(on, reason) {
      settingsTable.set(ENABLED_KEY, on ? 'true' : 'false');
      await sync(reason);
    },
    gatewayStatus(connected) {
      if (connected && !wasConnected && Object.keys(registry.read().agents).length > 0) {
        if (deps.boundPort() === null) syncWhenListening = true;
        else void sync('gateway connected');
      }
      wasConnected = connected;
    },
    listening() {
      if (!syncWhenListening) return;
      syncWhenListening = false;
      void sync('gateway connected before svc listened');
    },
    hasGateway: () => gateway.connected() || existsSync(gatewayPaths(stateDir).configFile),
    async view() {
      const read = readGatewayConfig(stateDir);
      const config = read.config ?? {};
      let agentIds: string[] = [];
      try {
        agentIds = read.config || gateway.connected() ? await gatewayAgentIds({ gateway }, config) : [];
      } catch (err) {
        // The gateway did not answer agents.list: the config's agents are shown instead.
        logger.debug({ error: deps.redact(messageOf(err)) }, 'agents.list failed for the model-routing view');
        agentIds = await gatewayAgentIds({ gateway: { connected: () => false, call: gateway.call } }, config);
      }
      return routingView(
        {
          enabled: enabled(),
          config,
          env: readGatewayEnv(stateDir),
          agentIds,
          registry: registry.read(),
          svcPort: deps.boundPort() ?? 0,
          vaultGet: (name) => vault.get(name),
          oauthProviders: new Set(readAuthProfiles(stateDir, logger).filter((p) => p.type === 'oauth').map((p) => p.provider)),
          tokenVerifies: (agentId, token) => tokens.verify(agentId, token) !== null,
          fromDefault: new Set(fromDefault.read()),
        },
        { endpoint: endpoint(), lastSync, vaultHas: (name) => vault.get(name) !== null },
      );
    },
    keysLeftInGateway() {
      const current = registry.read();
      // Not applied yet (routing off, or no sync has routed an agent): the gateway's keys are where it needs them.
      if (!enabled() || Object.keys(current.agents).length === 0) return { active: false, names: [] };
      return { active: true, names: keysInGatewayFiles(readGatewayConfig(stateDir).config, readGatewayEnv(stateDir), current) };
    },
  };
}
