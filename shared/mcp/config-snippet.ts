// GET /api/mcp/config (spec "Tools broker and MCP"): what to paste into an
// agent runtime so that it attaches to one of svc's MCP servers.
//
//              http                                        stdio
//   cli-a      `cli-a mcp add --transport http <id> <url>`  `cli-a mcp add --transport stdio <id> --env SVC_DB_PATH=<db> -- node <bin>`
//   cli-b      TOML [mcp_servers.<id>] url = "<url>"       TOML [mcp_servers.<id>] command = "node", args = ["<bin>"], env
//   gateway    JSON { mcp: { servers: { <id>: { transport: "streamable-http", url } } } }
//                                                          JSON { mcp: { servers: { <id>: { transport: "stdio", command: "node", args, env } } } }
//
// `structured` is the same attachment as data. A stdio entry sets
// SVC_DB_PATH to the server's own database, so the binary the runtime spawns
// shares it even when SVC_HOME or SVC_DB_PATH was moved. When the access gate
// is on, an http entry without a binding carries an `Authorization: Bearer
// <STUDIO_ACCESS_TOKEN>` header with a placeholder (the real token is never
// printed); an entry with a binding needs no token, since the gate admits a
// minted binding on the MCP transport route.
//
// With a minted binding (GET /api/mcp/config?agentId=, beyond the spec) the
// entry carries it: the X-Svc-Mcp-Binding header (http) or SVC_MCP_BINDING
// (stdio), and its id names the agent (`svc-<server>-<agent>`), so one
// runtime can hold one entry per agent. The binding is the agent's own
// credential, printed once; svc keeps only its hash.
import { join } from 'node:path';
import { MCP_BINDING_ENV, MCP_BINDING_HEADER } from './binding.ts';
import type { McpServerName } from './types.ts';

export const MCP_RUNTIMES = ['cli-a', 'cli-b', 'gateway'] as const;
export type McpRuntime = (typeof MCP_RUNTIMES)[number];
export const MCP_TRANSPORTS = ['http', 'stdio'] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];

/** What stands in for the access token in a gated http snippet. */
export const TOKEN_PLACEHOLDER = '<STUDIO_ACCESS_TOKEN>';

export interface AttachInput {
  server: McpServerName;
  runtime: McpRuntime;
  transport: McpTransport;
  /** `http://127.0.0.1:<port>`: the bound loopback port, never a Host header. */
  baseUrl: string;
  /** SVC_MCP_BIN_DIR. */
  binDir: string;
  /** The database the stdio binary must open (the server's own). */
  dbPath: string;
  /** Whether the access gate is on. */
  gated: boolean;
  /** A minted binding for one agent: the token goes into the entry, the agent id into its name. */
  binding?: { token: string; agentId: string };
}

export interface AttachConfig {
  id: string;
  transport: McpTransport;
  snippet: string;
  structured: Record<string, unknown>;
}

/** A shell word: bare when it is plain, else single-quoted. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A TOML basic string (JSON string escapes are a subset TOML accepts). */
const tomlString = (s: string): string => JSON.stringify(s);
const tomlInline = (o: Record<string, string>): string =>
  `{ ${Object.entries(o).map(([k, v]) => `${/^[A-Za-z0-9_-]+$/.test(k) ? k : tomlString(k)} = ${tomlString(v)}`).join(', ')} }`;

/** An agent id as an entry-name suffix: `[A-Za-z0-9_-]` only (a TOML bare key, a gateway server name), at most 40 characters. */
export const entrySuffix = (agentId: string): string => agentId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40);

export function mcpAttachConfig(input: AttachInput): AttachConfig {
  const { binding } = input;
  const id = binding ? `svc-${input.server}-${entrySuffix(binding.agentId)}` : `svc-${input.server}`;
  const url = `${input.baseUrl}/api/mcp/${input.server}`;
  const headers: Record<string, string> = {
    // A binding also passes the access gate on the MCP route: the agent never needs the operator's token.
    ...(input.gated && !binding ? { Authorization: `Bearer ${TOKEN_PLACEHOLDER}` } : {}),
    ...(binding ? { [MCP_BINDING_HEADER]: binding.token } : {}),
  };
  const hasHeaders = Object.keys(headers).length > 0;
  const binPath = join(input.binDir, `${input.server}.js`);
  const env: Record<string, string> = { SVC_DB_PATH: input.dbPath, ...(binding ? { [MCP_BINDING_ENV]: binding.token } : {}) };
  const out = (snippet: string, structured: Record<string, unknown>): AttachConfig => ({
    id,
    transport: input.transport,
    snippet,
    structured,
  });

  if (input.transport === 'http') {
    switch (input.runtime) {
      case 'cli-a': {
        const headerArgs = Object.entries(headers).map(([k, v]) => ` --header ${shellWord(`${k}: ${v}`)}`).join('');
        return out(`cli-a mcp add --transport http ${id} ${shellWord(url)}${headerArgs}`, {
          name: id, type: 'http', url, ...(hasHeaders ? { headers } : {}),
        });
      }
      case 'cli-b': {
        const lines = [`[mcp_servers.${id}]`, `url = ${tomlString(url)}`];
        if (hasHeaders) lines.push(`http_headers = ${tomlInline(headers)}`);
        return out(`${lines.join('\n')}\n`, { mcp_servers: { [id]: { url, ...(hasHeaders ? { http_headers: headers } : {}) } } });
      }
      case 'gateway': {
        const structured = { mcp: { servers: { [id]: { transport: 'streamable-http', url, ...(hasHeaders ? { headers } : {}) } } } };
        return out(JSON.stringify(structured, null, 2), structured);
      }
    }
  }
  switch (input.runtime) {
    case 'cli-a': {
      const envArgs = Object.entries(env).map(([k, v]) => ` --env ${shellWord(`${k}=${v}`)}`).join('');
      return out(`cli-a mcp add --transport stdio ${id}${envArgs} -- node ${shellWord(binPath)}`, {
        name: id, type: 'stdio', command: 'node', args: [binPath], env,
      });
    }
    case 'cli-b': {
      const lines = [`[mcp_servers.${id}]`, 'command = "node"', `args = [${tomlString(binPath)}]`, `env = ${tomlInline(env)}`];
      return out(`${lines.join('\n')}\n`, { mcp_servers: { [id]: { command: 'node', args: [binPath], env } } });
    }
    case 'gateway': {
      const structured = { mcp: { servers: { [id]: { transport: 'stdio', command: 'node', args: [binPath], env } } } };
      return out(JSON.stringify(structured, null, 2), structured);
    }
  }
}
