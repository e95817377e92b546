// A request's work stops when its client goes away: the signal a route hands
// to the job pool (eval trials, skill scans) fires when the response's socket
// closes before the answer was written, and the pool stops the job. Not
// fastify's `request.signal`: under Node 20 the request stream closes as soon
// as a POST's body has been read, so that signal fires long before the
// client leaves (sse.ts watches the response for the same reason).
import type { FastifyReply } from 'fastify';

/** The reason a client-gone signal carries: the work was stopped, nothing failed. */
export class ClientGoneError extends Error {
  override name = 'ClientGoneError';
  constructor() {
    super('the client went away before the answer');
  }
}

/** True once the response's connection closed before the answer was complete. */
export function isClientGone(reply: FastifyReply): boolean {
  return reply.raw.closed && !reply.raw.writableFinished;
}

/** An AbortSignal that fires when the client goes away before its answer is complete. */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const ac = new AbortController();
  const check = () => {
    if (isClientGone(reply)) ac.abort(new ClientGoneError());
  };
  if (reply.raw.closed) check();
  else reply.raw.once('close', check);
  return ac.signal;
}
