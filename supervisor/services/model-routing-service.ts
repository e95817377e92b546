// Model routing as a service (issue 22, docs/model-routing.md): the setting
// `model-routing:enabled` (default on), the registry the model endpoint
// reads, the model tokens, what the routing part of the gateway reconciler
// (gateway-wiring-service.ts) needs to plan, the view GET
// /api/system/model-routing answers, and the names of real keys left in the
// gateway's files for the health check; the operator's actions on one
// upstream (confirm the host its key may go to) and one agent's token
// (rotate, revoke). The reconciler applies routing with the other parts of
// svc's wiring; nothing here writes the gateway's files.
import { existsSync } from 'node:fs';
import type { AgentTokenStore } from '../../shared/agent-tokens/index.ts';
import { lookupEnv } from '../../shared/config.ts';
import { PROVIDERS } from '../../shared/gateway/providers.ts';
import type { SettingsTable } from '../../shared/db/settings-table.ts';
import { messageOf } from '../../shared/errors.ts';
import { readAuthProfiles } from '../../shared/gateway/auto-configure.ts';
import type { Logger } from '../../shared/log.ts';
import { gatewayPaths } from '../../shared/paths.ts';
import { keysInGatewayFiles } from '../../shared/model-routing/gateway-keys.ts';
import { originOf, withHost } from '../../shared/model-routing/key-hosts.ts';
import { createRegistryStore, type RegistryStore } from '../../shared/model-routing/registry.ts';
import { revokeModelToken, rotateModelToken, type TokenActionDeps } from '../../shared/model-routing/token-actions.ts';
import { createTokenStateStore, tokenEnvVar, tokenStateOf } from '../../shared/model-routing/token-names.ts';
import { ENABLED_KEY, routingView, type ModelRoutingView } from '../../shared/model-routing/status.ts';
import { createFromDefaultStore, fromDefaultSets } from '../../shared/model-routing/from-default.ts';
import type { GatewayReach } from '../../shared/gateway/config-rpc.ts';
import { gatewayAgentIds, type ModelTokens, type RoutingDeps } from '../../shared/model-routing/sync.ts';
import { readGatewayConfig, readGatewayEnv } from '../../shared/settings/gateway-files.ts';
import type { Vault } from '../../shared/vault/index.ts';

export type { ModelRoutingView } from '../../shared/model-routing/status.ts';

export interface ModelRoutingService {
  /** Where the model endpoint finds each agent's upstream. */
  registry: RegistryStore;
  enabled(): boolean;
  /** Stores the setting (the caller reconciles). */
  setEnabled(enabled: boolean): void;
  /** What the routing part of a reconcile plans with (all but the gateway's state folder, which the reconcile found). */
  planDeps: Omit<RoutingDeps, 'stateDir'>;
  /** Whether there is a gateway to route: svc is connected to one, or its openclaw.json exists. */
  hasGateway(): boolean;
  view(): Promise<ModelRoutingView>;
  /** For the health check: routing is on and applied (some agent routed), and the names of real keys the gateway's files still hold. */
  keysLeftInGateway(): { active: boolean; names: string[] };
  /**
   * Binds the upstream's key to its base URL's origin. `origin` is the one
   * the operator was shown: 'unknown' when no such upstream, 'moved' when its
   * origin is another now (nothing is bound).
   */
  confirmHost(upstreamId: string, origin: string): 'ok' | 'unknown' | 'moved';
  /** Whether svc has a model token for the agent, or had one (routed now, a token in the vault, rotated or revoked before). */
  knowsAgentToken(agentId: string): boolean;
  /** Ends the agent's token and moves it to its next name (the caller reconciles, which mints it). */
  rotateToken(agentId: string): void;
  /** Ends the agent's token; none is minted until a rotation. */
  revokeToken(agentId: string): void;
}

export interface ModelRoutingDeps {
  /** The gateway's state folder as the reconciler last found it. */
  stateDir: () => string;
  settingsTable: Pick<SettingsTable, 'get' | 'set'>;
  vault: Pick<Vault, 'get' | 'set' | 'delete'>;
  agentTokens: AgentTokenStore;
  logger: Logger;
  redact: (s: string) => string;
  gateway: GatewayReach;
  boundPort: () => number | null;
  /** The reconciler's last round, as the view shows it. */
  lastSync: () => ModelRoutingView['lastSync'];
}

/**
 * svc's vault as routing reads it: a known model provider's key exported in
 * svc's own environment counts as held (read, never copied into the vault),
 * since the gateway svc starts while routing is on no longer inherits it
 * (the `gateway-routed` child kind): its calls must reach that provider through svc.
 */
function routingVaultOf(vault: ModelRoutingDeps['vault']): ModelRoutingDeps['vault'] {
  const envKeys = new Set(PROVIDERS.flatMap((info) => [info.envVar, ...info.altEnvVars]));
  return {
    get: (name) => vault.get(name) ?? (envKeys.has(name) ? (lookupEnv(name) ?? null) : null),
    set: (name, value) => vault.set(name, value),
    delete: (name) => vault.delete(name),
  };
}

export function createModelRoutingService(deps: ModelRoutingDeps): ModelRoutingService {
  const { stateDir, settingsTable, agentTokens, logger, gateway } = deps;
  const vault = routingVaultOf(deps.vault);
  const registry = createRegistryStore(settingsTable, vault, logger);
  const tokenStates = createTokenStateStore(settingsTable, logger);
  const tokenActions: TokenActionDeps = { tokenStates, vault, revokeAll: (agentId) => agentTokens.revokeAgent('model', agentId) };
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
  const fromDefault = createFromDefaultStore(settingsTable, logger);
  const enabled = () => settingsTable.get(ENABLED_KEY) !== 'false';
  const endpoint = () => {
    const port = deps.boundPort();
    return port === null ? null : `http://127.0.0.1:${port}/model`;
  };

  return {
    registry,
    enabled,
    setEnabled: (on) => void settingsTable.set(ENABLED_KEY, on ? 'true' : 'false'),
    planDeps: { registry, vault, tokens, log: logger, fromDefault, tokenStates },
    hasGateway: () => gateway.connected() || existsSync(gatewayPaths(stateDir()).configFile),
    async view() {
      const dir = stateDir();
      const read = readGatewayConfig(dir);
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
          env: readGatewayEnv(dir),
          agentIds,
          registry: registry.read(),
          svcPort: deps.boundPort() ?? 0,
          vaultGet: (name) => vault.get(name),
          oauthProviders: new Set(readAuthProfiles(dir, logger).filter((p) => p.type === 'oauth').map((p) => p.provider)),
          tokenVerifies: (agentId, token) => tokens.verify(agentId, token) !== null,
          ...fromDefaultSets(fromDefault.read()),
          tokenStates: tokenStates.read(),
        },
        { endpoint: endpoint(), lastSync: deps.lastSync(), vaultHas: (name) => vault.get(name) !== null },
      );
    },
    keysLeftInGateway() {
      const current = registry.read();
      // Not applied yet (routing off, or no sync has routed an agent): the gateway's keys are where it needs them.
      if (!enabled() || Object.keys(current.agents).length === 0) return { active: false, names: [] };
      const dir = stateDir();
      return { active: true, names: keysInGatewayFiles(readGatewayConfig(dir).config, readGatewayEnv(dir), current) };
    },
    confirmHost(upstreamId, origin) {
      const current = registry.read();
      const upstream = Object.hasOwn(current.upstreams, upstreamId) ? current.upstreams[upstreamId] : undefined;
      if (!upstream) return 'unknown';
      const now = originOf(upstream.baseUrl);
      if (now === null || now !== origin) return 'moved';
      if (upstream.keyName === null) return 'ok';
      registry.write({ ...current, keyHosts: withHost(current.keyHosts, upstream.keyName, now) });
      logger.info({ upstream: upstreamId, origin: now }, 'the operator confirmed the host a provider key may be sent to');
      return 'ok';
    },
    knowsAgentToken(agentId) {
      const states = tokenStates.read();
      return Object.hasOwn(registry.read().agents, agentId) || Object.hasOwn(states, agentId) || vault.get(tokenEnvVar(agentId, tokenStateOf(states, agentId).generation)) !== null;
    },
    rotateToken(agentId) {
      const { envName } = rotateModelToken(tokenActions, agentId);
      logger.info({ agentId, envName }, 'model token rotated');
    },
    revokeToken(agentId) {
      revokeModelToken(tokenActions, agentId);
      logger.info({ agentId }, 'model token revoked');
    },
  };
}
