// Sends a JSON body given as parts (shared/obs/json-parts.ts) without
// joining them. The parts are written corked, so they leave in one writev
// and Node copies the strings into the socket's write buffer in C++: no
// large string and no Buffer is made for the answer. (A stream through
// fastify's send was slower: the response's 16 KB high-water mark split
// every answer over several turns of the event loop.) The length is known
// up front, so the answer carries Content-Length like any other JSON reply.
//
// The reply is hijacked: fastify's onSend and onResponse hooks do not run
// for it (svc registers none), and the headers set on the reply so far
// (e.g. by onRequest hooks) are sent with it.
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import { partsByteLength, type JsonParts } from '../../shared/obs/json-parts.ts';

export function sendJsonParts(reply: FastifyReply, parts: JsonParts): void {
  reply.hijack();
  const res = reply.raw;
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = partsByteLength(parts);
  res.writeHead(200, headers);
  res.cork();
  for (const part of parts) res.write(part);
  res.end();
}
