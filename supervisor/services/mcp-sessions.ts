// The in-process MCP servers behind /api/mcp/<server> (spec "Tools broker and
// MCP → MCP transport"): stateful Streamable HTTP sessions keyed by the
// `mcp-session-id` header, one fresh McpServer and transport per session,
// bound at initialize from the attach URL's query and the minted binding in
// the X-Svc-Mcp-Binding header (shared/mcp/binding.ts). Sessions are bounded: at
// most config.mcpMaxSessions open (an initialize beyond gets 503), and one
// with no request in flight for config.mcpSessionIdleMs is closed. An open
// GET stream counts as a request in flight, so an attached client that is
// merely quiet keeps its session; an abandoned one is reaped.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpProbe } from '../../shared/health/types.ts';
import { BindingError, httpSessionBinding, MCP_BINDING_HEADER } from '../../shared/mcp/binding.ts';
import { mcpProbe } from '../../shared/mcp/probe.ts';
import { MCP_SERVER_FACTORIES } from '../../shared/mcp/servers.ts';
import { MCP_SERVER_NAMES, type McpContext, type McpServerFactory, type McpServerName } from '../../shared/mcp/types.ts';
import type { AgentTokenStore } from '../../shared/agent-tokens/index.ts';
import { publicMessageOf } from '../../shared/errors.ts';

export const MCP_ERRORS = {
  /** POST without a session id that is not initialize, or with an unknown one. */
  noSession: 'Bad Request: No valid session ID provided. Send an initialize request first.',
  /** GET or DELETE without a session id or with an unknown one. */
  invalidSession: 'Bad Request: Invalid or missing session ID.',
  tooMany: (max: number) =>
    `Service Unavailable: too many open MCP sessions (limit ${max}). Close an unused session (DELETE) or retry later.`,
  shuttingDown: 'Service Unavailable: the server is shutting down.',
} as const;

export interface McpRequest {
  method: string;
  raw: IncomingMessage;
  res: ServerResponse;
  /** The URL query as parsed by the router (the binding is read from it at initialize). */
  query: unknown;
  /** The JSON body as parsed by the router (undefined for GET and DELETE). */
  body: unknown;
}

export interface McpHost {
  /** What the mcpServersHealthy check asks for tools/list. */
  probes(): McpProbe[];
  /** Serves one request to /api/mcp/<server>; the caller has handed over the response. */
  handle(server: McpServerName, req: McpRequest): Promise<void>;
  /** Open sessions. */
  sessionCount(): number;
  /** Closes every open session. */
  close(): Promise<void>;
}

/** What the MCP servers are built from: their context, and the minted bindings that identify an agent. */
export type McpHostDeps = McpContext & { agentTokens: AgentTokenStore };

export interface McpHostOptions {
  /** Replaces factories (tests). */
  factories?: Partial<Record<McpServerName, McpServerFactory>>;
  now?: () => number;
}

interface Session {
  id: string | null;
  server: McpServerName;
  mcp: McpServer;
  transport: StreamableHTTPServerTransport;
  lastUsed: number;
  inflight: number;
  closed: boolean;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

const rpcError = (res: ServerResponse, status: number, message: string): void =>
  sendJson(res, status, { jsonrpc: '2.0', error: { code: -32000, message }, id: null });

/** How often idle sessions are looked for: a quarter of the idle bound, within 250 ms..60 s. */
export const sweepInterval = (idleMs: number): number => Math.min(Math.max(Math.floor(idleMs / 4), 250), 60_000);

export function createMcpHost(deps: McpHostDeps, opts: McpHostOptions = {}): McpHost {
  const { config, logger, redactor } = deps;
  const now = opts.now ?? Date.now;
  const factories: Record<McpServerName, McpServerFactory> = { ...MCP_SERVER_FACTORIES, ...opts.factories };
  const ctx: McpContext = {
    config, db: deps.db, tx: deps.tx, domain: deps.domain, eventLog: deps.eventLog, broker: deps.broker, logger, redactor,
  };
  const tokens = deps.agentTokens;
  const bindingHeader = MCP_BINDING_HEADER.toLowerCase();
  const sessions = new Map<string, Session>();
  let pending = 0;
  let closed = false;

  const closeSession = async (s: Session, why: string): Promise<void> => {
    if (s.closed) return;
    s.closed = true;
    if (s.id) sessions.delete(s.id);
    logger.debug({ server: s.server, why }, 'MCP session closed');
    try {
      await s.mcp.close();
    } catch (err) {
      // The session is already gone from the table; a failing close only leaks its streams until they end.
      logger.warn({ err, server: s.server }, 'closing an MCP session failed');
    }
  };

  const sweep = () => {
    const t = now();
    for (const s of sessions.values()) {
      if (s.inflight === 0 && t - s.lastUsed >= config.mcpSessionIdleMs) void closeSession(s, 'idle');
    }
  };
  const timer = setInterval(sweep, sweepInterval(config.mcpSessionIdleMs));
  timer.unref();

  /** Hands one request to the session's transport, counting it in flight until its response ends. */
  const serve = async (s: Session, req: McpRequest): Promise<void> => {
    s.inflight++;
    s.lastUsed = now();
    req.res.once('close', () => {
      s.inflight--;
      s.lastUsed = now();
    });
    await s.transport.handleRequest(req.raw, req.res, req.body);
  };

  const initialize = async (server: McpServerName, req: McpRequest): Promise<void> => {
    if (closed) return rpcError(req.res, 503, MCP_ERRORS.shuttingDown);
    sweep();
    if (sessions.size + pending >= config.mcpMaxSessions) return rpcError(req.res, 503, MCP_ERRORS.tooMany(config.mcpMaxSessions));
    let binding;
    try {
      binding = httpSessionBinding(server, req.query, req.raw.headers[bindingHeader], tokens);
    } catch (err) {
      if (err instanceof BindingError) return rpcError(req.res, 400, `Bad Request: ${err.message}`);
      throw err;
    }
    pending++;
    let registered = false;
    let session: Session | null = null;
    try {
      const mcp = factories[server](ctx, binding);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        // A POST is answered with plain JSON, not a one-event SSE stream:
        // no tool here streams progress, and the echo round trip through the
        // SDK client drops from 2.9 to 1.7 ms p50 (npm run bench -- mcp).
        // Server-to-client messages still flow on the session's GET stream.
        enableJsonResponse: true,
        onsessioninitialized: (id) => {
          if (!session) return;
          session.id = id;
          sessions.set(id, session);
          registered = true;
          pending--;
        },
        // DELETE: the transport answers 200; the session is closed once that answer is out.
        onsessionclosed: (id) => {
          sessions.delete(id);
        },
      });
      session = { id: null, server, mcp, transport, lastUsed: now(), inflight: 0, closed: false };
      const own = session;
      transport.onclose = () => {
        if (own.id) sessions.delete(own.id);
      };
      await mcp.connect(transport);
      await serve(session, req);
    } finally {
      if (!registered) {
        pending--;
        // Initialize was refused (bad protocol version, a throw): nothing to keep.
        if (session) await closeSession(session, 'initialize refused');
      }
    }
  };

  const lookup = (server: McpServerName, header: string | string[] | undefined): Session | null => {
    if (typeof header !== 'string' || header === '') return null;
    const s = sessions.get(header);
    return s && s.server === server && !s.closed ? s : null;
  };

  const dispatch = async (server: McpServerName, req: McpRequest): Promise<void> => {
    const header = req.raw.headers['mcp-session-id'];
    if (req.method === 'POST') {
      if (header === undefined) {
        return isInitializeRequest(req.body) ? initialize(server, req) : rpcError(req.res, 400, MCP_ERRORS.noSession);
      }
      const s = lookup(server, header);
      return s ? serve(s, req) : rpcError(req.res, 400, MCP_ERRORS.noSession);
    }
    const s = lookup(server, header);
    if (!s) return rpcError(req.res, 400, MCP_ERRORS.invalidSession);
    await serve(s, req);
    if (req.method === 'DELETE' && !sessions.has(s.id as string)) await closeSession(s, 'deleted by the client');
  };

  return {
    probes: () => MCP_SERVER_NAMES.map((name) => mcpProbe(name, factories[name], ctx)),
    sessionCount: () => sessions.size,
    async handle(server, req) {
      try {
        await dispatch(server, req);
      } catch (err) {
        logger.error({ err, server, method: req.method }, 'MCP request failed');
        if (!req.res.headersSent) sendJson(req.res, 500, { error: redactor.text(publicMessageOf(err) || 'internal error') });
        else req.res.destroy();
      }
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await Promise.all([...sessions.values()].map((s) => closeSession(s, 'server closing')));
    },
  };
}
