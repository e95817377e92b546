// The answers fastify and Node write before any hook runs: a target the
// router cannot decode (400), a path parameter past its length (414), a
// request the HTTP parser refuses (400, 408, 431). They keep their statuses
// and gain what every answer carries (issue 15 #11): the anti-framing
// headers, and the `{ error }` envelope for the router's own refusals.
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { SECURITY_HEADERS, setSecurityHeaders } from './security-headers.ts';

const ROUTER_ERRORS: Readonly<Record<string, [number, string]>> = {
  FST_ERR_BAD_URL: [400, 'invalid URL'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'URL parameter too long'],
};

export function frameworkErrorWithHeaders(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const [status, error] = ROUTER_ERRORS[err.code] ?? [500, 'internal error'];
  setSecurityHeaders(reply);
  void reply.code(status).send({ error });
}

const HEADER_LINES = SECURITY_HEADERS.map(([k, v]) => `${k}: ${v}\r\n`).join('');

/** fastify's default client-error answer, with the security headers. */
export function clientErrorWithHeaders(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has no one to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify({ error: STATUS_CODES[status] ?? 'Bad Request' });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json\r\nConnection: close\r\n${HEADER_LINES}\r\n${body}`,
    );
  }
  socket.destroy(err);
}
