// DNS-rebinding guard (beyond the spec). While svc is bound to a loopback
// address, a request whose Host is not a loopback name, or whose Origin
// (when present) is not the dashboard's own, is refused with 403 before
// routing — MCP and WebSocket upgrades included. Without this, any web page
// could resolve its own hostname to 127.0.0.1 and drive the dashboard. In
// development mode the UI dev server's origin (one setting, issue 15 #10) is
// accepted besides the dashboard's own; no other origin is.
//
// Allowed hosts (issue 16 #6, `SVC_ALLOWED_HOSTS`): a TLS reverse proxy on
// this machine forwards its public name as Host (or svc's own address, as
// nginx does by default), and its pages send `Origin: https://<that name>`.
// A Host whose name is an allowed host passes, on any port; so does an
// Origin `http(s)://<allowed host>` on any port: the port an Origin carries
// is the proxy's, which svc cannot know, and the name is one the operator
// chose, so no page elsewhere can carry it. Every other name is refused as
// before. The upgrade path (upgrade.ts) applies the same verdict.
import type { IncomingHttpHeaders } from 'node:http';
import { originOf } from './dev-cors.ts';

const LOOPBACK_NAMES = /^(localhost|[a-z0-9-]+\.localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

export function isLoopbackAddress(host: string): boolean {
  const h = host.trim().toLowerCase();
  return h === 'localhost' || h === '::1' || h === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

function splitHostPort(value: string): { host: string; port: number | null } {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(value.trim());
  if (!m) return { host: value, port: null };
  return { host: m[1] as string, port: m[2] ? Number(m[2]) : null };
}

export interface HostGuardOptions {
  /** Guard only while bound to a loopback address. */
  enabled: boolean;
  /** Development mode: the UI dev server's serialised origin, accepted besides the dashboard's own; else null. */
  trustedOrigin: string | null;
  boundPort: () => number | null;
  /** Host names accepted besides the loopback names, on any port (`allowedHostNames(config.allowedHosts)`). */
  allowedHosts?: readonly string[];
}

/**
 * The configured allowed hosts as the guard compares them: lowercased, an
 * IPv6 literal in brackets (as Host and URL write it), a `:port` someone
 * wrote after a name dropped (any port of an allowed host passes anyway).
 */
export function allowedHostNames(list: readonly string[]): readonly string[] {
  const names = list.map((raw) => {
    const h = raw.trim().toLowerCase();
    if (/^[0-9a-f:.]+$/.test(h) && h.split(':').length > 2) return `[${h}]`;
    return splitHostPort(h).host;
  });
  return Object.freeze([...new Set(names.filter((h) => h !== ''))]);
}

// Hosts seen lately: their name (lowercased, port dropped) and whether it is
// a loopback name. A dashboard sees a handful of Host values, and this check
// runs on every request.
interface HostEntry {
  name: string;
  loopback: boolean;
}
const hostCache = new Map<string, HostEntry>();
const HOST_CACHE_MAX = 64;

function hostEntry(value: string): HostEntry {
  let entry = hostCache.get(value);
  if (entry === undefined) {
    const name = splitHostPort(value).host.toLowerCase();
    entry = { name, loopback: LOOPBACK_NAMES.test(name) };
    if (hostCache.size >= HOST_CACHE_MAX) hostCache.clear();
    hostCache.set(value, entry);
  }
  return entry;
}

function isAllowed(name: string, opts: HostGuardOptions): boolean {
  return opts.allowedHosts !== undefined && opts.allowedHosts.length > 0 && opts.allowedHosts.includes(name);
}

/** Returns why a request must be refused, or null when it may pass. */
export function hostGuardVerdict(headers: IncomingHttpHeaders, opts: HostGuardOptions): string | null {
  if (!opts.enabled) return null;
  const hostHeader = headers.host;
  if (typeof hostHeader !== 'string') return 'Host header is not a loopback name';
  const host = hostEntry(hostHeader);
  if (!host.loopback && !isAllowed(host.name, opts)) return 'Host header is not a loopback name';
  const origin = headers.origin;
  if (origin === undefined || (opts.trustedOrigin !== null && originOf(origin) === opts.trustedOrigin)) return null;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    // "null" or garbage: an opaque origin is never the dashboard itself.
    return 'Origin is not this dashboard';
  }
  // A page served through the reverse proxy: its own name, whatever port the proxy listens on.
  if ((url.protocol === 'https:' || url.protocol === 'http:') && isAllowed(url.hostname, opts)) return null;
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const bound = opts.boundPort();
  if (!LOOPBACK_NAMES.test(url.hostname) || (bound !== null && port !== bound)) return 'Origin is not this dashboard';
  return null;
}
