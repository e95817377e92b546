// Where a provider key may go (issue 31 item 6, docs/model-routing.md "Keys
// go only where they were meant to"): each key svc's vault holds for routing
// is bound to the origins (scheme, host, port) of the upstreams it was stored
// for. A key first seen in the gateway's own files binds to the base URL the
// files name then (the gateway already sends it there); a key only the vault
// holds binds to a built-in provider's fixed endpoint, or to nothing until the
// operator confirms a host in svc. An upstream whose base URL moved to another
// origin is not sent the key until then. Pure: the registry stores the map.

/** Key name (the vault entry) → the origins its value may be sent to. */
export type KeyHosts = Record<string, string[]>;

/** `https://api.example.com:8443` of a URL (user-info, path and query dropped); null when it does not parse. */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    // Not a URL: nothing may be sent there, so it matches no binding.
    return null;
  }
}

/** Whether an upstream's key may be sent to its base URL: a keyless one always, else its origin must be bound to the key. */
export function hostConfirmed(keyHosts: Readonly<KeyHosts>, upstream: { baseUrl: string; keyName: string | null }): boolean {
  if (upstream.keyName === null) return true;
  const origin = originOf(upstream.baseUrl);
  const bound = Object.hasOwn(keyHosts, upstream.keyName) ? keyHosts[upstream.keyName] : undefined;
  return origin !== null && (bound?.includes(origin) ?? false);
}

/** `keyHosts` with `origin` added to `keyName`'s origins (a new object; the input is left as it is). */
export function withHost(keyHosts: Readonly<KeyHosts>, keyName: string, origin: string): KeyHosts {
  const bound = Object.hasOwn(keyHosts, keyName) ? (keyHosts[keyName] as string[]) : [];
  return { ...keyHosts, [keyName]: bound.includes(origin) ? bound : [...bound, origin] };
}

/**
 * A registry stored before keys were bound: each key is bound to the origin
 * of the upstream svc has been sending it to (the registry's base URL), so an
 * upgrade changes nothing until a base URL moves.
 */
export function withLegacyBindings<R extends { upstreams: Record<string, { baseUrl: string; keyName: string | null }>; keyHosts: KeyHosts }>(registry: R, hadKeyHosts: boolean): R {
  if (hadKeyHosts) return registry;
  let keyHosts = registry.keyHosts;
  for (const u of Object.values(registry.upstreams)) {
    const origin = originOf(u.baseUrl);
    if (u.keyName !== null && origin !== null) keyHosts = withHost(keyHosts, u.keyName, origin);
  }
  return { ...registry, keyHosts };
}
