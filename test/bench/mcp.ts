// MCP: what an agent pays per tool call, and what an attached session costs
// the server. Against the production build (dist/), a fresh home.
//
// (1) Round trip of one `echo` call (the full broker pipeline: validation,
//     decision, two audit rows, two event-log rows) through the real SDK
//     Client, calls back to back, 1 s warm-up + 4 s:
//     - over Streamable HTTP to /api/mcp/tools (one session, keep-alive);
//     - over stdio to `node dist/bin/mcp/tools.js` on the same database.
//     Baseline: GET /api/settings on the same server, back to back on one
//     keep-alive connection, for the same time (one HTTP round trip that
//     does no work).
// (2) 200 concurrent sessions (50 per server, each initialized and having
//     listed its tools; the SDK client also holds each session's GET stream
//     open): the server's settled RSS before and with them open, per session.
//     Closed again with DELETE, the session count falls back.
// Targets (the issue names none; chosen so a tool call stays negligible next
// to a model turn and a busy host fits in memory): round trip p99 < 25 ms
// over both transports; ≤ 256 KB RSS per open session.
import { Agent } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REPO_ROOT } from '../helpers/server.ts';
import { httpRequest } from './lib/http.ts';
import { settledRssKb } from './lib/proc.ts';
import { fmt, percentile } from './lib/stats.ts';
import { startSvc, svcEnv, type Svc } from './lib/svc.ts';
import type { Benchmark, BenchResult } from './lib/types.ts';

const WARMUP_MS = 1000;
const MEASURE_MS = 4000;
const SESSIONS = 200;
const SERVERS = ['tasks', 'memory', 'tools', 'teamchat'] as const;
const P99_TARGET_MS = 25;
const KB_PER_SESSION_TARGET = 256;
const BIN = join(REPO_ROOT, 'dist', 'bin', 'mcp', 'tools.js');

interface Lat { p50: number; p99: number; calls: number }

/** Runs `once` back to back: a warm-up, then the measured window; latencies in ms. */
async function backToBack(once: () => Promise<void>): Promise<Lat> {
  const warmEnd = performance.now() + WARMUP_MS;
  while (performance.now() < warmEnd) await once();
  const times: number[] = [];
  const end = performance.now() + MEASURE_MS;
  while (performance.now() < end) {
    const t0 = performance.now();
    await once();
    times.push(performance.now() - t0);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), calls: times.length };
}

const show = (l: Lat) => `p50 ${fmt(l.p50, 2)} ms, p99 ${fmt(l.p99, 2)} ms (${fmt(l.calls)} calls)`;

async function echoLoop(client: Client): Promise<Lat> {
  let n = 0;
  return backToBack(async () => {
    const text = `ping ${n++}`;
    const r = (await client.callTool({ name: 'echo', arguments: { text } })) as CallToolResult;
    if (r.isError || (r.content[0] as { text?: string } | undefined)?.text !== text) throw new Error(`echo answered ${JSON.stringify(r)}`);
  });
}

async function httpClient(svc: Svc, server: string): Promise<Client> {
  const client = new Client({ name: 'svc-bench', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${svc.port}/api/mcp/${server}`)));
  return client;
}

async function closeHttp(client: Client): Promise<void> {
  await (client.transport as StreamableHTTPClientTransport).terminateSession();
  await client.close();
}

async function roundTrips(svc: Svc): Promise<{ base: Lat; http: Lat; stdio: Lat }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const base = await backToBack(async () => {
    const r = await httpRequest(svc.port, '/api/settings', { agent });
    if (r.status !== 200) throw new Error(`GET /api/settings: ${r.status}`);
  });
  agent.destroy();
  console.log(`  baseline GET /api/settings: ${show(base)}`);

  const client = await httpClient(svc, 'tools');
  const http = await echoLoop(client);
  await closeHttp(client);
  console.log(`  echo over Streamable HTTP: ${show(http)}`);

  const env = Object.fromEntries(Object.entries(svcEnv(svc.home, svc.port)).filter((e): e is [string, string] => e[1] !== undefined));
  const stdioClient = new Client({ name: 'svc-bench', version: '0' });
  await stdioClient.connect(new StdioClientTransport({ command: process.execPath, args: [BIN], env, stderr: 'ignore' }));
  const stdio = await echoLoop(stdioClient);
  await stdioClient.close();
  console.log(`  echo over stdio: ${show(stdio)}`);
  return { base, http, stdio };
}

async function sessionMemory(svc: Svc): Promise<{ beforeKb: number; openKb: number; closedKb: number }> {
  const beforeKb = await settledRssKb(svc.proc.pid);
  const clients: Client[] = [];
  // Opened ten at a time: an attach storm, not one at a time.
  for (let i = 0; i < SESSIONS; i += 10) {
    clients.push(
      ...(await Promise.all(
        Array.from({ length: 10 }, async (_, j) => {
          const c = await httpClient(svc, SERVERS[(i + j) % SERVERS.length] as string);
          await c.listTools();
          return c;
        }),
      )),
    );
  }
  const openKb = await settledRssKb(svc.proc.pid, 9, 300);
  await Promise.all(clients.map(closeHttp));
  const closedKb = await settledRssKb(svc.proc.pid, 9, 300);
  return { beforeKb, openKb, closedKb };
}

async function run(): Promise<BenchResult> {
  const svc = await startSvc();
  try {
    const { base, http, stdio } = await roundTrips(svc);
    const mem = await sessionMemory(svc);
    const perSession = (mem.openKb - mem.beforeKb) / SESSIONS;
    console.log(`  RSS: ${fmt(mem.beforeKb / 1024, 1)} MB before, ${fmt(mem.openKb / 1024, 1)} MB with ${SESSIONS} sessions open (${fmt(perSession, 0)} KB each), ${fmt(mem.closedKb / 1024, 1)} MB after closing them`);
    const pass = http.p99 < P99_TARGET_MS && stdio.p99 < P99_TARGET_MS && perSession <= KB_PER_SESSION_TARGET;
    return {
      name: 'mcp',
      figures: `echo HTTP p50 ${fmt(http.p50, 2)} / p99 ${fmt(http.p99, 2)} ms; stdio p50 ${fmt(stdio.p50, 2)} / p99 ${fmt(stdio.p99, 2)} ms; ${SESSIONS} sessions ${fmt((mem.openKb - mem.beforeKb) / 1024, 1)} MB (${fmt(perSession, 0)} KB each)`,
      ratio: `HTTP p50 ${fmt(http.p50 / base.p50, 1)}×, stdio p50 ${fmt(stdio.p50 / base.p50, 1)}× a GET /api/settings round trip (${fmt(base.p50, 2)} ms)`,
      target: `p99 < ${P99_TARGET_MS} ms both transports; ≤ ${KB_PER_SESSION_TARGET} KB per session`,
      pass,
    };
  } finally {
    await svc.stop();
  }
}

export const mcp: Benchmark = { name: 'mcp', run };
