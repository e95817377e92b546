// The composition root of the HTTP front door. buildApp() is what tests use
// with inject(); main.ts builds it the same way and binds it.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { gateVerdict, GATE_ERROR } from './plugins/access-gate.ts';
import { applyDevCors, originOf } from './plugins/dev-cors.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { registerGatewayWiringHook } from './plugins/gateway-wiring-hook.ts';
import { allowedHostNames, hostGuardVerdict, isLoopbackAddress, type HostGuardOptions } from './plugins/host-header-guard.ts';
import { createRateLimiter } from './plugins/rate-limit.ts';
import { isApiPath, parseTarget } from './plugins/request-path.ts';
import { clientErrorWithHeaders, frameworkErrorWithHeaders } from './plugins/framework-errors.ts';
import { setSecurityHeaders } from './plugins/security-headers.ts';
import { createStaticUi } from './plugins/static-ui.ts';
import { agentsRoutes } from './routes/agents.ts';
import { gatewayAgentsRoutes } from './routes/gateway-agents.ts';
import { boardRoutes } from './routes/board.ts';
import { workboardRoutes } from './routes/workboard.ts';
import { healthRoutes } from './routes/health.ts';
import { leadRoutes } from './routes/lead.ts';
import { obsIngestRoutes } from './routes/obs-ingest.ts';
import { obsStreamRoutes } from './routes/obs-stream.ts';
import { obsRoutes } from './routes/obs.ts';
import { evalRoutes } from './routes/eval.ts';
import { settingsRoutes } from './routes/settings.ts';
import { systemRoutes } from './routes/system.ts';
import { existingGatewayRoutes } from './routes/system-existing-gateway.ts';
import { systemConfigRoutes } from './routes/system-config.ts';
import { modelRoutingRoutes } from './routes/model-routing.ts';
import { gatewayWiringRoutes } from './routes/gateway-wiring.ts';
import { execSettingsRoutes } from './routes/exec-settings.ts';
import { execAllowlistRoutes } from './routes/exec-allowlist.ts';
import { teamContextRoutes } from './routes/team-context.ts';
import { teamsRoutes } from './routes/teams.ts';
import { teamsDelegationRoutes } from './routes/teams-delegation.ts';
import { teamChatRoutes } from './routes/team-chat.ts';
import { teamChatRoomRoutes } from './routes/team-chat-room.ts';
import { costRecordsRoutes } from './routes/costs.ts';
import { fleetRoutes } from './routes/fleet.ts';
import { chatHistoryRoutes } from './routes/chat-history.ts';
import { graphLayoutRoutes } from './routes/graph-layout.ts';
import { personalityRoutes } from './routes/personality.ts';
import { skillsRoutes } from './routes/skills.ts';
import { governanceRoutes } from './routes/governance.ts';
import { budgetsRoutes } from './routes/budgets.ts';
import { modelPricesRoutes } from './routes/model-prices.ts';
import { approvalsHistoryRoutes } from './routes/approvals-history.ts';
import { catalogRoutes } from './routes/catalog.ts';
import { toolsRoutes } from './routes/tools.ts';
import { MCP_SERVER_ROUTE, mcpRoutes } from './routes/mcp.ts';
import { MODEL_ROUTE, modelEndpointRoutes } from './routes/model-endpoint.ts';
import { modelCallsRoutes } from './routes/model-calls.ts';
import { runawayLimitsRoutes } from './routes/runaway-limits.ts';
import { MCP_BINDING_HEADER } from '../../shared/mcp/binding.ts';

export const BODY_LIMIT_BYTES = 2 * 1024 * 1024;
/** Time allowed to receive a whole request (headers and body). */
export const REQUEST_TIMEOUT_MS = 30_000;

export function hostGuardOptions(deps: Pick<AppDeps, 'config' | 'boundPort'>): HostGuardOptions {
  return {
    enabled: isLoopbackAddress(deps.config.host),
    trustedOrigin: deps.config.isDevelopment ? originOf(deps.config.devOrigin) : null,
    boundPort: deps.boundPort,
    allowedHosts: allowedHostNames(deps.config.allowedHosts),
  };
}

export interface BuildAppOptions {
  /** The clock of the general rate limit (ms); tests inject one. */
  now?: () => number;
}

export function buildApp(deps: AppDeps, opts: BuildAppOptions = {}): FastifyInstance {
  const requestLogging = deps.config.logLevel === 'debug' || deps.config.logLevel === 'trace';
  const app = Fastify({
    // Fastify gets a logger only when per-request lines are wanted (debug,
    // trace): merely holding one cost about 3 µs per request (a seventh of
    // this server's CPU per request) even with request logging off. Errors
    // are logged by the error handler through svc's own logger either way.
    ...(requestLogging ? { loggerInstance: deps.logger as FastifyBaseLogger } : {}),
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout: REQUEST_TIMEOUT_MS,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    // Answers fastify writes before routing (a malformed target or request)
    // carry the anti-framing headers too.
    frameworkErrors: frameworkErrorWithHeaders,
    clientErrorHandler: clientErrorWithHeaders,
  });

  registerErrorHandling(app, deps.redactor, deps.logger);
  registerGatewayWiringHook(app, () => deps.gatewayWiring);
  // A gateway svc attached itself to holds one MCP session per agent and server, each with its GET stream open:
  // those sessions end first, or close() would wait on streams that never end by themselves.
  app.addHook('preClose', async () => {
    await deps.mcp.close();
  });

  // One callback hook for every request, after routing (fastify 5 runs
  // onRequest once the route is known, so `req.is404` says whether the router
  // matched): the anti-framing headers, then the rebinding guard, then the
  // general rate limit, then dev CORS (a preflight carries no cookie, so it
  // is answered before the gate), then the gate. Only the steps that apply
  // are done: this is the hot path. The rate limit counts what passed the
  // guard: a page elsewhere that the guard refuses (the user's browser is a
  // loopback client too) cannot spend the dashboard's budget. WebSocket
  // upgrades do not pass here (upgrade.ts; the proxy caps its connections).
  const guard = hostGuardOptions(deps);
  const limiter =
    deps.config.rateLimitPerMinute === null ? null : createRateLimiter({ perMinute: deps.config.rateLimitPerMinute, now: opts.now });
  const devOrigin = deps.config.isDevelopment ? originOf(deps.config.devOrigin) : null;
  const isDevelopment = deps.config.isDevelopment;
  const gate = deps.gate;
  // With the gate on, an agent attached over HTTP presents its own minted
  // binding, not the operator's token: the binding opens the MCP transport
  // route and nothing else (not /api/mcp/config, which mints bindings), so a
  // gateway config an agent can read holds no key to the rest of the API.
  const bindingHeader = MCP_BINDING_HEADER.toLowerCase();
  const agentAdmitted = (req: FastifyRequest): boolean => {
    if (req.routeOptions.url !== MCP_SERVER_ROUTE) return false;
    const presented = req.headers[bindingHeader];
    return typeof presented === 'string' && deps.agentTokens.verify('mcp', presented) !== null;
  };
  app.addHook('onRequest', (req, reply, done) => {
    setSecurityHeaders(reply);
    if (guard.enabled) {
      const problem = hostGuardVerdict(req.headers, guard);
      if (problem) return void reply.code(403).send({ error: `forbidden: ${problem}` });
    }
    // svc's model endpoint checks its own per-agent token (routes/model-endpoint.ts);
    // a busy gateway must not be throttled by the dashboard's limit.
    if (req.routeOptions.url === MODEL_ROUTE) return done();
    if (limiter !== null) {
      const retryAfter = limiter.hit(req.ip);
      if (retryAfter !== null) return void reply.code(429).header('Retry-After', String(retryAfter)).send(limiter.refusal);
    }
    if (isDevelopment && applyDevCors(req, reply, devOrigin)) return;
    if (gate.enabled) {
      const v = gateVerdict(gate, { method: req.method, url: req.url, headers: req.headers, matched: !req.is404 });
      if (v.kind === 'deny') {
        if (!agentAdmitted(req)) return void reply.code(401).send(GATE_ERROR);
        return done();
      }
      if (v.kind === 'redirect') return void reply.header('Set-Cookie', v.setCookie).redirect(v.location, 302);
      if (v.setCookie) void reply.header('Set-Cookie', v.setCookie);
    }
    done();
  });

  settingsRoutes(app, deps);
  healthRoutes(app, deps);
  obsStreamRoutes(app, deps);
  obsIngestRoutes(app, deps);
  obsRoutes(app, deps);
  evalRoutes(app, deps);
  systemRoutes(app, deps);
  existingGatewayRoutes(app, deps);
  systemConfigRoutes(app, deps);
  modelRoutingRoutes(app, deps);
  gatewayWiringRoutes(app, deps);
  // The spec: /api/cost-records/summary, /api/exec-settings/all and
  // /api/exec-allowlist/revoke before their shorter prefixes.
  costRecordsRoutes(app, deps);
  execSettingsRoutes(app, deps);
  execAllowlistRoutes(app, deps);
  teamsRoutes(app, deps);
  teamsDelegationRoutes(app, deps);
  teamContextRoutes(app, deps);
  teamChatRoutes(app, deps);
  teamChatRoomRoutes(app, deps);
  agentsRoutes(app, deps);
  gatewayAgentsRoutes(app, deps);
  boardRoutes(app, deps);
  workboardRoutes(app, deps);
  leadRoutes(app, deps);
  fleetRoutes(app, deps);
  chatHistoryRoutes(app, deps);
  graphLayoutRoutes(app, deps);
  personalityRoutes(app, deps);
  skillsRoutes(app, deps);
  governanceRoutes(app, deps);
  budgetsRoutes(app, deps);
  modelPricesRoutes(app, deps);
  approvalsHistoryRoutes(app, deps);
  catalogRoutes(app, deps);
  toolsRoutes(app, deps);
  mcpRoutes(app, deps);
  modelCallsRoutes(app, deps);
  runawayLimitsRoutes(app, deps);
  void app.register(async (scope) => modelEndpointRoutes(scope, deps));

  const ui = createStaticUi(deps.config.uiDist);
  app.setNotFoundHandler((req, reply) => {
    // Judged by the same normalised path as the gate: an /api target in any
    // spelling (or one that cannot be decoded) is a 404 envelope, never the UI.
    const target = parseTarget(req.url);
    const page = target !== null && !isApiPath(target.path);
    if (page && (req.method === 'GET' || req.method === 'HEAD') && ui.serve(target.path, reply)) return;
    void reply.code(404).send({ error: 'not found' });
  });
  return app;
}
