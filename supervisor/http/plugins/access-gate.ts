// The opt-in access gate (spec "Authentication" 1-7, issue 15 #1 and #12).
// With a token set, every route the router matched is gated (all of them are
// under /api), and so is any unmatched target whose normalised path is /api
// or below it, however it is spelled. The raw token is accepted in two forms
// only: `?access_token=` (mints the session cookie; on a page visit it
// redirects to the same path without the token) and `Authorization: Bearer`
// (for programs: MCP clients, the launcher; no cookie). The `svc_access`
// cookie holds a random session id and its HMAC under a key derived from a
// per-process secret and the token, never the token: every session ends on
// restart or a token change. A denied request gets a 401 whose JSON names
// the service, so the launcher can tell a gated svc from another program.
// A token with a character outside [A-Za-z0-9._~-] disables the gate with
// a loud warning.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from '../../../shared/log.ts';
import { isApiPath, locationFor, parseTarget } from './request-path.ts';

export const COOKIE_NAME = 'svc_access';
export const QUERY_PARAM = 'access_token';
export const TOKEN_RE = /^[A-Za-z0-9._~-]+$/;
export const GATE_ERROR = { error: 'access token required', service: 'svc' } as const;
const COOKIE_MAX_AGE_S = 30 * 24 * 3600;
const SESSION_ID_BYTES = 18;

export interface Gate {
  readonly enabled: boolean;
  /** Whether a candidate is the raw token (query parameter or bearer). */
  matches(candidate: string | undefined | null): boolean;
  /** Whether the request holds a session cookie minted by this process for this token. */
  hasSession(headers: IncomingHttpHeaders): boolean;
  /** Whether the request carries `Authorization: Bearer <token>`. */
  hasBearer(headers: IncomingHttpHeaders): boolean;
  /** A Set-Cookie value holding a fresh session. */
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

/** The credential of `Authorization: Bearer <credential>`, else undefined. */
export function bearerFrom(headers: IncomingHttpHeaders): string | undefined {
  const h = headers.authorization;
  if (typeof h !== 'string') return undefined;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(h);
  return m?.[1];
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
  // Sessions are signed with a key from this process's random secret and the
  // token: a restart or another token invalidates every cookie minted before.
  const sessionKey = enabled ? createHmac('sha256', randomBytes(32)).update(token as string).digest() : null;
  const sign = (id: string) => createHmac('sha256', sessionKey as Buffer).update(id).digest();
  const matches = (candidate: string | undefined | null) =>
    expected !== null && typeof candidate === 'string' && timingSafeEqual(digest(candidate), expected);
  const validSession = (value: string | undefined): boolean => {
    if (sessionKey === null || value === undefined) return false;
    const dot = value.indexOf('.');
    if (dot <= 0) return false;
    const mac = Buffer.from(value.slice(dot + 1), 'base64url');
    const want = sign(value.slice(0, dot));
    return mac.length === want.length && timingSafeEqual(mac, want);
  };
  return {
    enabled,
    matches,
    hasSession: (headers) => validSession(parseCookies(headers.cookie).get(COOKIE_NAME)),
    hasBearer: (headers) => matches(bearerFrom(headers)),
    setCookieHeader: (secure) => {
      const id = randomBytes(SESSION_ID_BYTES).toString('base64url');
      const value = `${id}.${sign(id).toString('base64url')}`;
      return `${COOKIE_NAME}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${COOKIE_MAX_AGE_S}${secure ? '; Secure' : ''}`;
    },
  };
}

export type GateVerdict =
  | { kind: 'pass'; setCookie?: string }
  | { kind: 'redirect'; location: string; setCookie: string }
  | { kind: 'deny' };

export interface GateRequest {
  method: string;
  /** The raw request target (path and query, or an absolute-form URL). */
  url: string;
  headers: IncomingHttpHeaders;
  /** Whether the router matched a route (every route is under /api, so it is gated). */
  matched: boolean;
}

const isHttps = (headers: IncomingHttpHeaders) =>
  String(headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim().toLowerCase() === 'https';

/** Decides one request. Matched routes are gated; an unmatched target by its normalised path. */
export function gateVerdict(gate: Gate, req: GateRequest): GateVerdict {
  if (!gate.enabled) return { kind: 'pass' };
  const { url, headers } = req;
  // Only the rare target with a query can carry the token; most requests skip the parse.
  if (url.includes(`${QUERY_PARAM}=`)) {
    const target = parseTarget(url);
    const params = new URLSearchParams(target?.query ?? '');
    if (gate.matches(params.get(QUERY_PARAM))) {
      const setCookie = gate.setCookieHeader(isHttps(headers));
      if (target && !req.matched && !isApiPath(target.path) && (req.method === 'GET' || req.method === 'HEAD')) {
        // A page visit: drop the token from the address bar and history; the
        // Location is a path on this origin, whatever the target looked like.
        params.delete(QUERY_PARAM);
        return { kind: 'redirect', location: locationFor(target.path, params.toString()), setCookie };
      }
      return { kind: 'pass', setCookie };
    }
  }
  if (gate.hasSession(headers) || gate.hasBearer(headers)) return { kind: 'pass' };
  if (req.matched) return { kind: 'deny' };
  const target = parseTarget(url);
  return target === null || isApiPath(target.path) ? { kind: 'deny' } : { kind: 'pass' };
}
