// Baseline servers for throughput benchmarks: raw node:http, no framework,
// each a one-file script run with `node -e` (spawnNode) and pinned like svc.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../helpers/server.ts';
import { httpRequest, waitFor200 } from './http.ts';
import { spawnNode, type Proc } from './processes.ts';

/** Hello-world, with the same headers as a fastify JSON reply, so only the framework's work differs. */
export const RAW_HELLO = `
const http = require('node:http');
const body = JSON.stringify({ hello: 'world' });
http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

// Fixed bytes (BODY_FILE) with fixed headers (HEADERS, JSON).
const RAW_BYTES = `
const http = require('node:http');
const body = require('node:fs').readFileSync(process.env.BODY_FILE);
const headers = JSON.parse(process.env.HEADERS);
http.createServer((req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

/**
 * A raw node:http server answering every request with `bytes` and `headers`
 * (what svc sent, to measure what the bytes alone cost); checks that it
 * serves them unchanged. The body file goes in `dir` (named after `name`).
 */
export async function rawBytesServer(
  dir: string,
  name: string,
  bytes: Buffer,
  headers: Record<string, string>,
): Promise<{ proc: Proc; port: number }> {
  const bodyFile = join(dir, `bench-raw-${name}.bin`);
  writeFileSync(bodyFile, bytes);
  const port = await freePort();
  const proc = spawnNode(['-e', RAW_BYTES], { ...process.env, PORT: String(port), BODY_FILE: bodyFile, HEADERS: JSON.stringify(headers) });
  try {
    await waitFor200(port, '/', proc);
    const answer = await httpRequest(port, '/', { timeoutMs: 20_000 });
    if (!answer.bytes.equals(bytes)) throw new Error(`the raw server (${name}) does not serve the bytes it was given`);
  } catch (err) {
    await proc.stop();
    throw err;
  }
  return { proc, port };
}
