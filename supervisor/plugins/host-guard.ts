// DNS-rebinding guard (beyond the spec). While svc is bound to a loopback
// address, a request whose Host is not a loopback name, or whose Origin
// (when present) is not the dashboard's own, is refused with 403 before
// routing — MCP and WebSocket upgrades included. Without this, any web page
// could resolve its own hostname to 127.0.0.1 and drive the dashboard. In
// development mode the UI dev server's origin (one setting, issue 15 #10) is
// accepted besides the dashboard's own; no other origin is.
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
}

// Hosts seen lately and whether they are loopback names: a dashboard sees a
// handful of Host values, and this check runs on every request.
const hostCache = new Map<string, boolean>();
const HOST_CACHE_MAX = 64;

function isLoopbackHostHeader(value: string): boolean {
  let ok = hostCache.get(value);
  if (ok === undefined) {
    ok = LOOPBACK_NAMES.test(splitHostPort(value).host);
    if (hostCache.size >= HOST_CACHE_MAX) hostCache.clear();
    hostCache.set(value, ok);
  }
  return ok;
}

/** Returns why a request must be refused, or null when it may pass. */
export function hostGuardVerdict(headers: IncomingHttpHeaders, opts: HostGuardOptions): string | null {
  if (!opts.enabled) return null;
  const hostHeader = headers.host;
  if (typeof hostHeader !== 'string' || !isLoopbackHostHeader(hostHeader)) {
    return 'Host header is not a loopback name';
  }
  const origin = headers.origin;
  if (origin === undefined || (opts.trustedOrigin !== null && originOf(origin) === opts.trustedOrigin)) return null;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    // "null" or garbage: an opaque origin is never the dashboard itself.
    return 'Origin is not this dashboard';
  }
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const bound = opts.boundPort();
  if (!LOOPBACK_NAMES.test(url.hostname) || (bound !== null && port !== bound)) return 'Origin is not this dashboard';
  return null;
}
