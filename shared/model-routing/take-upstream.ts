// What routing an upstream through svc takes from the gateway's files, the
// same for an agent's primary and for each of its fallbacks
// (docs/model-routing.md "Keys go only where they were meant to"): the
// upstream goes into the registry, its key into svc's vault (under its env
// var name) bound to the origin the gateway's files send it to, and the key
// out of the gateway's .env and `apiKey`. Pure: it records the changes in
// the plan's state; sync.ts applies them.
import type { OpList } from '../gateway-wiring/config-ops.ts';
import { originOf, withHost, type KeyHosts } from './key-hosts.ts';
import type { Upstream } from './registry.ts';
import type { Lookup } from './upstream-lookup.ts';

export type FoundUpstream = Extract<Lookup, { ok: true }>['found'];

/** The plan's running state that taking an upstream changes. */
export interface TakeState {
  ops: OpList;
  upstreams: Record<string, Upstream>;
  keyHosts: KeyHosts;
  /** Key names bound anew in this plan: a second upstream under the same name adds its origin rather than replacing. */
  reboundNow: Set<string>;
  vaultSet: Record<string, string>;
  /** .env names to drop once the config no longer needs them. */
  envAfter: Set<string>;
  vaultGet: (name: string) => string | null;
}

export function takeUpstream(state: TakeState, upstreamId: string, found: FoundUpstream): void {
  state.upstreams[upstreamId] = found.entry;
  const { keyName } = found.entry;
  const origin = originOf(found.entry.baseUrl);
  if (keyName !== null && found.keyValue !== null && origin !== null) {
    const stored = state.vaultGet(keyName);
    const bound = Object.hasOwn(state.keyHosts, keyName) ? (state.keyHosts[keyName] as string[]) : [];
    if (found.keySource === 'files' && stored !== found.keyValue) {
      // A key new to svc binds to where the gateway's own files send it now; the old value's hosts go with it.
      state.keyHosts = state.reboundNow.has(keyName) ? withHost(state.keyHosts, keyName, origin) : { ...state.keyHosts, [keyName]: [origin] };
      state.reboundNow.add(keyName);
    } else if (bound.length === 0 && (found.keySource === 'files' || found.builtIn)) {
      // Never bound: to the gateway's files' URL, or to a built-in provider's endpoint (svc's table, not a file).
      state.keyHosts = withHost(state.keyHosts, keyName, origin);
    }
    // Otherwise the binding stands: a base URL moved to another origin waits for the operator (hostConfirmed).
  }
  if (keyName !== null && found.keyValue !== null && state.vaultGet(keyName) !== found.keyValue) state.vaultSet[keyName] = found.keyValue;
  for (const name of found.envNames) state.envAfter.add(name);
  if (found.apiKeyInConfig) state.ops.remove(['models', 'providers', upstreamId, 'apiKey']);
}
