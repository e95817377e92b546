// Development mode only (NODE_ENV=development, issue 15 #10): the UI dev
// server is another origin, so it gets cross-origin access with credentials.
// Only that one origin (`SVC_DEV_ORIGIN`, default http://localhost:5173),
// never whichever origin asks: a page on any other origin gets no CORS
// headers, so the browser keeps its answers from it.
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The serialised origin of a URL (scheme://host[:port], lowercased, default port dropped), or null. */
export function originOf(url: string): string | null {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? null : o;
  } catch {
    // Not a URL: it names no origin, so it can match none.
    return null;
  }
}

/**
 * Adds the CORS headers when the request comes from the trusted origin and
 * answers its preflight. Returns true when the reply was sent (a preflight).
 */
export function applyDevCors(req: FastifyRequest, reply: FastifyReply, trustedOrigin: string | null): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  void reply.header('Vary', 'Origin');
  if (trustedOrigin === null || originOf(origin) !== trustedOrigin) return false;
  void reply.header('Access-Control-Allow-Origin', trustedOrigin);
  void reply.header('Access-Control-Allow-Credentials', 'true');
  if (req.method !== 'OPTIONS') return false;
  void reply.header('Access-Control-Allow-Methods', 'GET,POST,PUT,PATCH,DELETE,OPTIONS');
  void reply.header('Access-Control-Allow-Headers', String(req.headers['access-control-request-headers'] ?? 'content-type'));
  void reply.code(204).send();
  return true;
}
