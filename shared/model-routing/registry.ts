// Where each routed agent's model calls go (issue 22). When svc routes the
// gateway's model calls through its own endpoint, the gateway only knows
// `svc-<agentId>` providers pointing at svc (and `svc-<agentId>~<upstream>`
// for fallbacks on another upstream: svc-refs.ts); this registry is the other
// half: for each agent, the real upstreams (API, base URL, the name under
// which svc's vault holds the key, static headers) and the model ids it may
// call on each. The routing sync writes it; the model endpoint reads it on
// every call. Key values never live here, only vault entry names.
import { z } from 'zod';
import type { SettingsTable } from '../db/settings-table.ts';
import { messageOf } from '../errors.ts';
import { hostConfirmed, withLegacyBindings } from './key-hosts.ts';
import { isSvcOwnedKeyName } from './svc-names.ts';

/** The provider APIs svc's endpoint speaks (OpenClaw's `models.providers.<p>.api` values). */
export const ROUTED_APIS = ['openai-completions', 'anthropic-messages', 'openai-responses'] as const;
export type RoutedApi = (typeof ROUTED_APIS)[number];

export const REGISTRY_KEY = 'model-routing:registry';

const Upstream = z.object({
  api: z.enum(ROUTED_APIS),
  /** As the gateway's provider entry spells it (e.g. `https://api.openai.com/v1`, `https://api.anthropic.com`). */
  baseUrl: z.string().url(),
  /** The vault entry holding the key; null for a keyless upstream (local Ollama). */
  keyName: z.string().min(1).nullable(),
  headers: z.record(z.string(), z.string()).default({}),
});
export type Upstream = z.infer<typeof Upstream>;

const AgentEntry = z.object({
  upstream: z.string().min(1),
  /**
   * The model ids the gateway sends in a request's `model` for this agent:
   * the ids of the `svc-<agent>` provider entry the sync wrote (its primary,
   * and its fallbacks on the same upstream). The endpoint forwards no other.
   * A registry stored before this field lists none (the next sync writes it).
   */
  models: z.array(z.string().min(1)).default([]),
  /**
   * The agent's fallbacks on other upstreams: upstream id → the model ids of
   * its `svc-<agent>~<upstream>` entry. The endpoint's via-path
   * (`/model/<agent>/via/<upstream>/…`) forwards to an upstream listed here
   * only, and only these models. A registry stored before fallbacks were
   * routed lists none.
   */
  via: z.record(z.string(), z.array(z.string().min(1))).default({}),
});
export type AgentEntry = z.infer<typeof AgentEntry>;

export const RoutingRegistrySchema = z.object({
  agents: z.record(z.string(), AgentEntry).default({}),
  upstreams: z.record(z.string(), Upstream).default({}),
  /** Vault key name → the origins its value may be sent to (key-hosts.ts). */
  keyHosts: z.record(z.string(), z.array(z.string())).default({}),
});
export type RoutingRegistry = z.infer<typeof RoutingRegistrySchema>;
/** What a writer may pass: defaults (an agent's `models`, headers) filled in on write. */
export type RoutingRegistryInput = z.input<typeof RoutingRegistrySchema>;

/** An agent's upstream with its key read from the vault: what one forwarded call needs. */
export interface ResolvedUpstream extends Upstream {
  id: string;
  apiKey: string | null;
  /** The agent's model ids on this upstream (AgentEntry.models, or its `via` list): a call naming another is not forwarded. */
  models: readonly string[];
  /**
   * Whether the key may be sent to this base URL (always for a keyless
   * upstream). False: the base URL's origin is not one the key is bound to
   * (the operator has not confirmed it), `apiKey` is null, and the call must
   * be refused, not forwarded without a key.
   */
  hostConfirmed: boolean;
}

export interface RegistryStore {
  read(): RoutingRegistry;
  write(registry: RoutingRegistryInput): void;
  /**
   * The agent's primary upstream, or with `upstreamId` one of its fallbacks'
   * other upstreams (its entry's `via`). null when the agent is not routed,
   * its entry does not list that upstream, or the upstream entry is missing.
   */
  resolve(agentId: string, upstreamId?: string): ResolvedUpstream | null;
}

const empty = (): RoutingRegistry => ({ agents: {}, upstreams: {}, keyHosts: {} });

export function createRegistryStore(
  settings: Pick<SettingsTable, 'get' | 'set'>,
  vault: { get(name: string): string | null },
  log: { warn(obj: object, msg: string): void },
): RegistryStore {
  // Parsed once per stored text: the endpoint resolves on every call.
  let cachedText: string | null = null;
  let cached: RoutingRegistry = empty();
  // Per parsed upstream (a new registry text parses new objects): whether its key may go to its host.
  const confirmedOf = new WeakMap<Upstream, boolean>();
  const read = (): RoutingRegistry => {
    const text = settings.get(REGISTRY_KEY);
    if (text === cachedText) return cached;
    cachedText = text;
    if (text === null) return (cached = empty());
    try {
      const raw: unknown = JSON.parse(text);
      const parsed = RoutingRegistrySchema.safeParse(raw);
      if (parsed.success) return (cached = withLegacyBindings(parsed.data, typeof raw === 'object' && raw !== null && Object.hasOwn(raw, 'keyHosts')));
      log.warn({ key: REGISTRY_KEY }, 'the model-routing registry does not match its schema; treating every agent as unrouted');
    } catch (err) {
      log.warn({ key: REGISTRY_KEY, err: messageOf(err) }, 'the model-routing registry is not JSON; treating every agent as unrouted');
    }
    return (cached = empty());
  };
  return {
    read,
    write(registry) {
      // A registry given without key bindings (a test fixture, a tool) binds each key to its upstreams' origins, as a stored one does.
      const parsed = withLegacyBindings(RoutingRegistrySchema.parse(registry), Object.hasOwn(registry, 'keyHosts'));
      settings.set(REGISTRY_KEY, JSON.stringify(parsed));
    },
    resolve(agentId, upstreamId) {
      const registry = read();
      const entry = Object.hasOwn(registry.agents, agentId) ? registry.agents[agentId] : undefined;
      if (!entry) return null;
      const id = upstreamId ?? entry.upstream;
      // The via list only: the primary's upstream is reached by the agent's own path, never named in a via-path.
      const models = upstreamId === undefined ? entry.models : Object.hasOwn(entry.via, upstreamId) ? entry.via[upstreamId] : undefined;
      if (models === undefined || !Object.hasOwn(registry.upstreams, id)) return null;
      const upstream = registry.upstreams[id] as Upstream;
      let confirmed = confirmedOf.get(upstream);
      if (confirmed === undefined) {
        // A name svc owns (a model token, an MCP binding) is never a provider key, whatever a stored registry says.
        confirmed = hostConfirmed(registry.keyHosts, upstream) && (upstream.keyName === null || !isSvcOwnedKeyName(upstream.keyName));
        confirmedOf.set(upstream, confirmed);
      }
      const apiKey = upstream.keyName === null || !confirmed ? null : vault.get(upstream.keyName);
      return { id, ...upstream, apiKey, models, hostConfirmed: confirmed };
    },
  };
}
