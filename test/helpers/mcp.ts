// The real MCP SDK Client on an in-memory transport pair with a server built
// by one of svc's factories: both are closed when the test ends.
import type { TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export async function connectInMemory(t: TestContext, server: McpServer, clientName = 'svc-test'): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: clientName, version: '0.0.0' });
  await client.connect(clientSide);
  t.after(async () => {
    await client.close();
    await server.close();
  });
  return client;
}
