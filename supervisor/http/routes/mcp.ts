// Spec "Tools broker and MCP → /api/mcp/*". GET /api/mcp/config builds the
// attach snippet (with `agentId`, beyond the spec, it mints a binding for
// that agent and puts it in the snippet: shared/mcp/attach-binding.ts);
// POST, GET and DELETE /api/mcp/<server> hand the raw
// request, its parsed body and the response to the MCP host (the reply is
// hijacked: the SDK transport writes the response, SSE included).
import type { FastifyInstance } from 'fastify';
import { mintAttachBinding } from '../../../shared/mcp/attach-binding.ts';
import { mcpAttachConfig, MCP_RUNTIMES, MCP_TRANSPORTS, type McpRuntime, type McpTransport } from '../../../shared/mcp/config-snippet.ts';
import { isMcpServerName } from '../../../shared/mcp/servers.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, HttpError } from '../http-error.ts';

export const DEFAULT_API_PORT = 18790;

type ConfigQuery = { Querystring: { server?: unknown; runtime?: unknown; transport?: unknown; agentId?: unknown } };
type ServerParams = { Params: { server: string } };

/** A query value as one string (a repeated parameter reads as its values joined by commas). */
const queryText = (v: unknown, fallback: string): string =>
  v === undefined ? fallback : Array.isArray(v) ? v.map(String).join(',') : String(v);

const oneOf = <T extends string>(list: readonly T[], v: string): v is T => (list as readonly string[]).includes(v);

/** The MCP transport route: the one route an agent's minted binding opens when the gate is on (app.ts). */
export const MCP_SERVER_ROUTE = '/api/mcp/:server';

export function mcpRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { config, mcp } = deps;
  const tokens = deps.agentTokens;

  app.get<ConfigQuery>('/api/mcp/config', async (req, reply) => {
    const server = queryText(req.query.server, 'tasks');
    const runtime = queryText(req.query.runtime, 'cli-a');
    const transport = queryText(req.query.transport, 'http');
    if (!isMcpServerName(server)) throw badRequest(`unknown server: ${server}`);
    if (!oneOf<McpRuntime>(MCP_RUNTIMES, runtime)) throw badRequest(`unknown runtime: ${runtime}`);
    if (!oneOf<McpTransport>(MCP_TRANSPORTS, transport)) throw badRequest(`unknown transport: ${transport}`);
    const port = deps.boundPort() ?? config.apiPort ?? DEFAULT_API_PORT;
    const binding = mintAttachBinding(tokens, req.query) ?? undefined;
    // A snippet with a binding holds a credential: never cached.
    if (binding) reply.header('cache-control', 'no-store');
    return {
      ok: true,
      config: mcpAttachConfig({
        server,
        runtime,
        transport,
        baseUrl: `http://127.0.0.1:${port}`,
        binDir: config.mcpBinDir,
        dbPath: config.dbPath,
        gated: deps.gate.enabled,
        binding,
      }),
    };
  });

  app.route<ServerParams>({
    method: ['POST', 'GET', 'DELETE'],
    url: MCP_SERVER_ROUTE,
    handler: async (req, reply) => {
      const server = req.params.server;
      if (!isMcpServerName(server)) throw new HttpError(404, 'not found');
      // Headers the hooks set (the gate's cookie, dev CORS) survive the hand-over.
      for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) reply.raw.setHeader(k, v);
      reply.hijack();
      await mcp.handle(server, { method: req.method, raw: req.raw, res: reply.raw, query: req.query, body: req.body });
    },
  });
}
