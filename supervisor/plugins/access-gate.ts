// The opt-in access gate (spec "Authentication" 1-7). With a token set it
// runs before the router: `?access_token=` sets the `svc_access` cookie
// (Secure only behind `X-Forwarded-Proto: https`); the `/api/` check is
// case-folded; a request without a valid cookie or query token gets a 401
// whose JSON names the service, so the launcher can tell a gated svc from
// another program. A token with a character outside [A-Za-z0-9._~-]
// disables the gate with a loud warning.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from '../../shared/log.ts';

export const COOKIE_NAME = 'svc_access';
export const QUERY_PARAM = 'access_token';
export const TOKEN_RE = /^[A-Za-z0-9._~-]+$/;
export const GATE_ERROR = { error: 'access token required', service: 'svc' } as const;
const COOKIE_MAX_AGE_S = 30 * 24 * 3600;

export interface Gate {
  readonly enabled: boolean;
  matches(candidate: string | undefined | null): boolean;
  cookieFrom(headers: IncomingHttpHeaders): string | undefined;
  setCookieHeader(secure: boolean): string;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    const name = part.slice(0, i).trim();
    const raw = part.slice(i + 1).trim();
    try {
      out.set(name, decodeURIComponent(raw));
    } catch {
      // A malformed %-escape: keep the raw value, which simply will not match.
      out.set(name, raw);
    }
  }
  return out;
}

/** Builds the gate from the configured token (env first, then settings.json). */
export function createGate(token: string | null, logger: Logger): Gate {
  let enabled = token !== null && token !== '';
  if (enabled && !TOKEN_RE.test(token as string)) {
    const msg =
      'WARNING: STUDIO_ACCESS_TOKEN contains a character outside [A-Za-z0-9._~-]; the access gate is DISABLED. ' +
      'Every route is open to anyone who can reach this port.';
    logger.error(msg);
    console.error(msg);
    enabled = false;
  }
  const expected = enabled ? digest(token as string) : null;
  return {
    enabled,
    matches: (candidate) => expected !== null && typeof candidate === 'string' && timingSafeEqual(digest(candidate), expected),
    cookieFrom: (headers) => parseCookies(headers.cookie).get(COOKIE_NAME),
    setCookieHeader: (secure) =>
      `${COOKIE_NAME}=${encodeURIComponent(token ?? '')}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${COOKIE_MAX_AGE_S}${secure ? '; Secure' : ''}`,
  };
}

export type GateVerdict =
  | { kind: 'pass'; setCookie?: string }
  | { kind: 'redirect'; location: string; setCookie: string }
  | { kind: 'deny' };

/**
 * Whether a raw request path is under /api, as the router will see it: the
 * router decodes %-escapes, so the check must too (`/%61pi/settings` is
 * `/api/settings`). Null when the path cannot be decoded.
 */
export function isApiPath(rawPath: string): boolean | null {
  let p: string;
  try {
    p = decodeURIComponent(rawPath).toLowerCase();
  } catch {
    // A malformed %-escape: the caller treats the request as unroutable.
    return null;
  }
  return p === '/api' || p.startsWith('/api/');
}

/** Decides one request. `url` is the raw request URL (path and query). */
export function gateVerdict(gate: Gate, method: string, url: string, headers: IncomingHttpHeaders): GateVerdict {
  if (!gate.enabled) return { kind: 'pass' };
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const params = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
  const api = isApiPath(path);
  if (api === null) return { kind: 'deny' };
  const isApi = api;
  const queryToken = params.get(QUERY_PARAM);
  if (queryToken !== null && gate.matches(queryToken)) {
    const secure = String(headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim().toLowerCase() === 'https';
    const setCookie = gate.setCookieHeader(secure);
    if (!isApi && (method === 'GET' || method === 'HEAD')) {
      // A page visit: drop the token from the address bar and history.
      params.delete(QUERY_PARAM);
      const rest = params.toString();
      return { kind: 'redirect', location: rest ? `${path}?${rest}` : path, setCookie };
    }
    return { kind: 'pass', setCookie };
  }
  if (!isApi) return { kind: 'pass' };
  return gate.matches(gate.cookieFrom(headers)) ? { kind: 'pass' } : { kind: 'deny' };
}
