// svc's model endpoint (issue 22): `/model/<agentId>/<api path>` on svc's own
// port, outside /api, where the gateway's per-agent `svc-<agentId>` provider
// sends every model call, and `/model/<agentId>/via/<upstream>/<api path>`
// where its `svc-<agentId>~<upstream>` entry sends the agent's fallbacks on
// another upstream (the registry must list that upstream for the agent). The caller's token (purpose `model`, bound to the
// path's agent) is the gate: it is checked before the body is read, and the
// dashboard's access gate and rate limit do not apply here (app.ts). Errors
// answer in the envelope of the API the path names (error-shape.ts:
// Anthropic's on `/v1/messages`, OpenAI's elsewhere), which the gateway's
// clients and the official SDKs read as typed errors.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { createCallContextReader } from '../../../shared/model-proxy/call-context.ts';
import { apiOfTail, splitViaTail } from '../../../shared/model-proxy/api.ts';
import { errorAnswer } from '../../../shared/model-proxy/error-shape.ts';
import { createAgentLimits } from '../../../shared/model-proxy/agent-limits.ts';
import { createWriteBatch } from '../../../shared/db/write-batch.ts';
import { createRegistryStore } from '../../../shared/model-routing/registry.ts';
import { createModelCallHandler } from '../../../shared/model-proxy/call.ts';
import { INLINE_BODY_BYTES, readRequest } from '../../../shared/model-proxy/request-facts.ts';
import { createCallRecorder, writeCallRecords } from '../../../shared/model-proxy/records.ts';
import { createRecordQueue } from '../../../shared/model-proxy/record-queue.ts';
import { resolveRunawayLimits } from '../../../shared/model-proxy/runaway-limits.ts';
import { recordRunaway } from '../../../shared/model-proxy/runaway-record.ts';
import { createEntryWriter } from '../../../shared/team-chat/entries.ts';
import { HttpError } from '../http-error.ts';

export const MODEL_ROUTE = '/model/:agentId/*';
/** Longest wait for a provider's response headers (a slow first token is normal; a dead one is not). */
export const MODEL_HEADERS_TIMEOUT_MS = 600_000;

const M = {
  token: 'invalid svc model token',
  unknownPath: 'unknown model API path',
  method: 'method not allowed: use POST',
  badJson: 'request body is not a JSON object',
  notRouted: (agentId: string) => `agent ${agentId} is not routed through svc`,
  notRoutedVia: (agentId: string, upstream: string) => `agent ${agentId} is not routed through svc to upstream ${upstream}`,
  hostUnconfirmed: (upstream: string) => `upstream ${upstream} has moved to a host its key was not stored for: confirm the host in svc (Model routing) before calls go there`,
  tooLarge: (n: number) => `request body over ${n} bytes`,
} as const;

function presentedToken(req: FastifyRequest): string | null {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '').trim();
  const key = req.headers['x-api-key'];
  return typeof key === 'string' ? key.trim() : null;
}

export interface ModelEndpointOptions {
  bodyLimitBytes?: number;
}

export async function modelEndpointRoutes(scope: FastifyInstance, deps: AppDeps, opts: ModelEndpointOptions = {}): Promise<void> {
  const bodyLimit = opts.bodyLimitBytes ?? deps.config.modelBodyLimitBytes;
  const lane = deps.modelLane;
  // The routing service's registry, read through the lane's connection (model-call-lane.ts says why).
  const registry = createRegistryStore(lane.settings, deps.vault, deps.logger);
  const limits = createAgentLimits({ maxInflight: deps.config.modelMaxInflightPerAgent, perMinute: deps.config.modelCallsPerMinutePerAgent });
  const runawayNotes = { tx: deps.tx, eventLog: deps.eventLog, entries: createEntryWriter(deps.chatMessages, Date.now) };
  // A call's cost row, cost event and span: written by the ingest worker, off this thread (record-queue.ts).
  const records = createRecordQueue({
    serving: () => deps.ingest.serving(),
    send: (batch) => deps.ingest.recordCalls(batch),
    here: (batch) => void writeCallRecords({ tx: lane.tx, eventLog: lane.eventLog, costs: lane.costs }, batch),
    afterCommit: (cb) => lane.tx.afterCommit(cb),
    logger: deps.logger,
  });
  // Before the workers stop (the app closes first): the records handed over reach the database.
  scope.addHook('onClose', () => records.drained());
  const handle = createModelCallHandler({
    writes: createWriteBatch(lane.tx),
    calls: lane.calls,
    ledger: lane.ledger,
    context: createCallContextReader(lane.db),
    recorder: createCallRecorder({ prices: lane.costs.prices, sink: records.sink }),
    logger: deps.logger,
    haltForBudget: (p) => deps.teamChat.haltForBudget(p),
    headersTimeoutMs: MODEL_HEADERS_TIMEOUT_MS,
    runaway: {
      limits: (teamIds) => resolveRunawayLimits(lane.settings, teamIds, deps.logger),
      record: (input) => recordRunaway(runawayNotes, input),
    },
  });

  // The body is forwarded as received (its size is the estimate's input): read as bytes, parsed once (request-facts.ts).
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  scope.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const status = err instanceof HttpError ? err.statusCode : (err.statusCode ?? 500);
    const params = req.params as { agentId?: string; '*'?: string };
    const api = apiOfTail(splitViaTail(params['*'] ?? '').tail);
    if (status >= 500) deps.logger.error({ err, method: req.method, agentId: params.agentId }, 'model endpoint: internal error');
    const message =
      status === 413 ? M.tooLarge(bodyLimit)
      : err instanceof HttpError || status < 500 ? (status === 400 && !(err instanceof HttpError) ? M.badJson : err.message)
      : 'internal error';
    const answer = errorAnswer(api, status, message, err instanceof HttpError ? err.extra : {});
    return reply.code(status).type(answer.contentType).send(answer.body);
  });

  scope.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: MODEL_ROUTE,
    bodyLimit,
    // The token before the body: a caller without one cannot make svc read a large body.
    onRequest: (req, _reply, done) => {
      const { agentId } = req.params as { agentId: string };
      const token = presentedToken(req);
      const binding = token === null ? null : deps.agentTokens.verify('model', token);
      if (binding === null || binding.agentId !== agentId) return done(new HttpError(401, M.token));
      done();
    },
    handler: async (req, reply) => {
      const receivedAt = performance.now();
      const { agentId, '*': tail } = req.params as { agentId: string; '*': string };
      const admitted = limits.admit(agentId);
      if (!admitted.ok) {
        reply.header('retry-after', String(admitted.retryAfterS));
        throw new HttpError(429, admitted.message);
      }
      try {
        await serve(req, reply, agentId, tail, receivedAt);
      } finally {
        admitted.release();
      }
    },
  });

  async function serve(req: FastifyRequest, reply: FastifyReply, agentId: string, tail: string, receivedAt: number): Promise<void> {
    const { via, tail: apiTail } = splitViaTail(tail);
    const api = apiOfTail(apiTail);
    if (api === null) throw new HttpError(404, M.unknownPath);
    if (req.method !== 'POST') throw new HttpError(405, M.method);
    // A fallback's path reaches only an upstream the agent's entry lists, with that upstream's models.
    const upstream = via === null ? registry.resolve(agentId) : registry.resolve(agentId, via);
    if (upstream === null) throw new HttpError(404, via === null ? M.notRouted(agentId) : M.notRoutedVia(agentId, via));
    // A key goes only to the host it was stored for; without it the call would go out keyless, or to the wrong place.
    if (!upstream.hostConfirmed) throw new HttpError(403, M.hostUnconfirmed(upstream.id));
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const facts =
      raw.length <= INLINE_BODY_BYTES
        ? readRequest(api, agentId, upstream.models, raw)
        : await deps.pool.run('modelRequest', { api, agentId, models: [...upstream.models], raw });
    if (facts === null) throw new HttpError(400, M.badJson);
    // From here the answer is streamed by hand; errors after this point are
    // logged (the caller has its status already), never answered twice.
    reply.hijack();
    try {
      await handle({ agentId, api, upstream, raw, facts, headers: req.headers, res: reply.raw, receivedAt });
    } catch (err) {
      deps.logger.error({ err, agentId, api }, 'model endpoint: a call failed after its answer began');
      if (!reply.raw.headersSent) {
        const answer = errorAnswer(api, 500, 'internal error');
        reply.raw.writeHead(500, { 'content-type': answer.contentType }).end(answer.body);
      } else reply.raw.destroy();
    }
  }
}
