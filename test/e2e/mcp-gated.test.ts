// Issue 15 #6 with the access gate on: an agent attached over HTTP holds its
// own minted binding, never the operator's token. The binding opens the MCP
// transport route (real SDK Client over Streamable HTTP, svc as a child
// process) and nothing else: not the attach-config route that mints
// bindings, not the rest of the API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer, stopAfter } from '../helpers/server.ts';

const TOKEN = 'gate-token-for-mcp-test';
const GATE_ERROR = { error: 'access token required', service: 'svc' };

void test('Security (issue 15 #6): with the gate on, a minted MCP binding passes the gate on the MCP route only; the snippet carries no access token', async (t) => {
  const s = stopAfter(t, await startServer({ env: { STUDIO_ACCESS_TOKEN: TOKEN } }));
  const operator = { authorization: `Bearer ${TOKEN}` };

  // The operator mints the agent's binding; the snippet needs no token placeholder.
  const minted = await fetch(`${s.base}/api/mcp/config?server=tools&runtime=gateway&agentId=agent-1`, { headers: operator });
  assert.equal(minted.status, 200);
  const { config } = (await minted.json()) as { config: { snippet: string; structured: { mcp: { servers: Record<string, { headers: Record<string, string> }> } } } };
  const entry = Object.values(config.structured.mcp.servers)[0];
  assert.ok(entry, 'the gateway entry');
  const binding = entry.headers['X-Svc-Mcp-Binding'];
  assert.match(binding ?? '', /^svc_mcp_/);
  assert.equal(entry.headers.Authorization, undefined, 'no Authorization header in a bound entry');
  assert.doesNotMatch(config.snippet, /STUDIO_ACCESS_TOKEN|Bearer/);
  const agent = { 'X-Svc-Mcp-Binding': binding as string };

  // The agent, with only its binding, works over the real SDK client.
  const transport = new StreamableHTTPClientTransport(new URL(`${s.base}/api/mcp/tools`), { requestInit: { headers: agent } });
  const client = new Client({ name: 'gated-agent', version: '0.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  const { tools } = await client.listTools();
  assert.ok(tools.some((tool) => tool.name === 'echo'));
  const echoed = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
  assert.notEqual(echoed.isError, true);

  // The same binding opens nothing else: the attach-config route (it would mint bindings for others) and the API.
  for (const path of ['/api/mcp/config?server=tools&agentId=someone-else', '/api/settings', '/api/tools/approvals']) {
    const res = await fetch(`${s.base}${path}`, { headers: agent });
    assert.equal(res.status, 401, path);
    assert.deepEqual(await res.json(), GATE_ERROR, path);
  }
  const resolve = await fetch(`${s.base}/api/tools/approvals/x/resolve`, {
    method: 'POST', headers: { ...agent, 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'allow_once' }),
  });
  assert.equal(resolve.status, 401);

  // An unknown binding, or none, is refused at the gate.
  const init = JSON.stringify({
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
  const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const forged = `svc_mcp_${'A'.repeat(43)}`;
  for (const headers of [mcpHeaders, { ...mcpHeaders, 'X-Svc-Mcp-Binding': forged }]) {
    const res = await fetch(`${s.base}/api/mcp/tools`, { method: 'POST', headers, body: init });
    assert.equal(res.status, 401);
    assert.deepEqual(await res.json(), GATE_ERROR);
  }
});
