// Issue 30 item 1: routes change svc's own state, and the gateway reconciler
// keeps the gateway in step. After each successful write through svc's API
// (a team, a member, an agent, a setting, a key, ...) the reconciler looks
// whether svc's side of the desired state (or the gateway's files) changed
// and, when it did, applies it before the answer goes out: when a person's
// "add member" returns, the lead may already hand work to the member. A
// route that changes the gateway's own files says so (`gatewayChange`) and
// always gets a round. The reconciler never rejects; a failure shows in its
// status and the health report, never as this request's error.
import type { FastifyInstance } from 'fastify';
import type { GatewayWiringService } from '../../services/gateway-wiring-service.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route writes the gateway's own files (its config, .env, agents): a reconcile follows every success. */
    gatewayChange?: boolean;
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** How long an answer waits for the round its write started. */
export const ANSWER_WAIT_MS = 10_000;
/** Paths that never change what svc wires into the gateway: the MCP transport, ingest, the chat's messages, the board, health rechecks. */
const SKIPPED = ['/api/mcp/', '/api/obs/ingest', '/api/team-chat/', '/api/tasks', '/api/health'];
const SKIPPED_ROUTES = new Set(['/api/teams/:id/chat', '/api/teams/:id/chat/stop']);

export function registerGatewayWiringHook(app: FastifyInstance, wiring: () => GatewayWiringService): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (!WRITES.has(req.method) || reply.statusCode >= 300 || !req.url.startsWith('/api/')) return payload;
    if (SKIPPED.some((p) => req.url.startsWith(p)) || SKIPPED_ROUTES.has(req.routeOptions.url ?? '')) return payload;
    const reason = `${req.method} ${req.routeOptions.url ?? req.url}`;
    const round = req.routeOptions.config.gatewayChange === true ? wiring().reconcile(reason) : wiring().poke(reason);
    // A gateway that does not answer must not hold the person's write: past the bound the answer goes out and the
    // round goes on (its outcome shows on the Gateway page and in the health report).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([round, new Promise<void>((resolve) => (timer = setTimeout(resolve, ANSWER_WAIT_MS)))]);
    clearTimeout(timer);
    return payload;
  });
}
