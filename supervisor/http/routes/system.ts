// Spec "System (host and gateway)": status, install-gateway, gateway
// lifecycle, approve-device, models, self-version and self-update; and
// install-node (issue 30 #6: the Node svc installs for the gateway). The work
// happens in the gateway-host worker; these routes validate, call it and
// turn its frames into SSE (`data: <json>` + blank line, type
// progress|output|error|complete).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { selfVersion, type SelfVersion } from '../../../shared/launcher/version.ts';
import type { ApproveDeviceResult } from '../../../shared/gateway/device-approval.ts';
import { listModels } from '../../../shared/gateway/models.ts';
import { UPDATE_PACKAGE_UNSET } from '../../../shared/channels/gateway-host.ts';
import { managedNodeSpec, noNodePackageMessage } from '../../../shared/gateway/managed-node.ts';
import type { AppDeps } from '../../deps.ts';
import { INSTALL_RUNNING, type OpFrame, type StreamingOp } from '../../services/gateway-host-service.ts';
import { frameData, type SseStream } from '../sse.ts';
import { HttpError, internalError } from '../http-error.ts';
import { messageOf } from '../../../shared/errors.ts';
import { objectBody, parseOr400 } from '../validate.ts';

const BODY_REQUIRED = 'JSON body required';
const Action = z.object({ action: z.enum(['start', 'stop', 'restart', 'status']) });
const ACTION_MESSAGE = "action must be 'start', 'stop', 'restart', or 'status'";
const SelfVersionQuery = z.object({ local: z.string().optional().catch(undefined) });
/** A registry answer is kept this long: the dashboard asks on every page load. */
const LATEST_CACHE_MS = 10 * 60_000;

export function systemRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { config, gatewayHost: host, logger, redactor } = deps;

  /** Opens the SSE stream and runs the operation into it; the client leaving aborts (an install dies with it). */
  async function stream(req: FastifyRequest, reply: FastifyReply, op: StreamingOp, opts: { restart?: boolean } = {}) {
    let sse: SseStream;
    try {
      sse = deps.sse.open(req, reply, { connectedComment: false });
    } catch (err) {
      // A refusal before the reply was taken over (the stream cap's 503) goes to the one error handler.
      if (err instanceof HttpError) throw err;
      // The reply is already taken over, so the error handler cannot answer: end it here rather than hang the client.
      logger.error({ err, op }, 'could not open the event stream');
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      reply.raw.end(JSON.stringify({ error: 'could not open the event stream' }));
      return;
    }
    const ac = new AbortController();
    let finished = false;
    sse.onClose(() => {
      if (!finished) ac.abort();
    });
    const send = (f: OpFrame) => sse.write(frameData(JSON.stringify(redactor.deep(f))));
    try {
      await host.run(op, send, { signal: ac.signal, restart: opts.restart });
    } catch (err) {
      logger.error({ err, op }, 'gateway-host operation failed');
      send({ type: 'error', code: 'INTERNAL', message: messageOf(err) });
    } finally {
      finished = true;
      sse.close();
    }
  }

  app.get('/api/system/status', async () => {
    const r = await host.request('status', {}, { timeoutMs: 15_000 });
    if (!r.ok) throw internalError(r.error.message);
    if (r.result.gateway.running && r.result.gatewayCli.envExists) {
      try {
        if (host.syncToken()) deps.gatewayLink.reconfigure();
      } catch (err) {
        // The status itself is still right; the sync runs again on the next call.
        logger.warn({ err }, 'gateway token sync failed');
      }
    }
    return r.result;
  });

  /** One install at a time (issue 15 #17): a retry while one runs is refused, never run beside it. */
  const install = (req: FastifyRequest, reply: FastifyReply, op: 'install' | 'installNode' | 'selfUpdate', opts: { restart?: boolean } = {}) => {
    if (host.installRunning()) throw new HttpError(409, INSTALL_RUNNING);
    return stream(req, reply, op, opts);
  };

  app.post('/api/system/install-gateway', (req, reply) => install(req, reply, 'install'));

  // Issue 30 #6: no body. A platform npm has no Node package for is refused before any stream.
  app.post('/api/system/install-node', (req, reply) => {
    if (managedNodeSpec() === null) throw new HttpError(501, noNodePackageMessage());
    return install(req, reply, 'installNode');
  });

  app.post('/api/system/gateway', { config: { badJsonMessage: BODY_REQUIRED } }, async (req, reply) => {
    const { action } = parseOr400(Action, objectBody(req.body, BODY_REQUIRED), ACTION_MESSAGE);
    if (action === 'start' || action === 'restart') return stream(req, reply, action);
    if (action === 'stop') {
      const r = await host.request('stop', {}, { timeoutMs: 15_000 });
      if (!r.ok) throw internalError(r.error.message);
      return r.result;
    }
    const r = await host.request('lifecycleStatus', {}, { timeoutMs: 10_000 });
    if (!r.ok) throw internalError(r.error.message);
    const { running, pid, port, uptimeMs } = r.result;
    return { running, pid, port, uptimeMs };
  });

  app.post('/api/system/approve-device', async (): Promise<ApproveDeviceResult> => {
    // Two CLI calls of about 3.3 s each, each bounded at 30 s in the worker.
    const r = await host.request('approveDevice', {}, { timeoutMs: 70_000 });
    if (!r.ok) throw internalError(`Failed to run gateway CLI: ${r.error.message}`);
    const a = r.result;
    switch (a.outcome) {
      case 'approved':
        return { ok: true, requestId: a.requestId, output: redactor.text(a.output) };
      case 'not-installed':
        throw new HttpError(400, 'gateway CLI not installed');
      case 'spawn-failed':
        throw internalError(`Failed to run gateway CLI: ${a.message}`);
      case 'none-pending':
        throw new HttpError(404, 'No pending device pairing requests found', { details: redactor.text(a.details) });
      case 'approve-failed':
        throw internalError(`Failed to approve device: ${a.message}`, { requestId: a.requestId });
    }
  });

  app.get('/api/system/models', async () =>
    listModels(config.gatewayStateDir, (method, params) => deps.gatewayLink.call(method, params, { timeoutMs: 5000, waitMs: 1000 }), logger),
  );

  let latestCache: { at: number; latest: string } | null = null;
  app.get('/api/system/self-version', async (req): Promise<SelfVersion> => {
    const { local } = parseOr400(SelfVersionQuery, req.query ?? {});
    const current = config.version;
    // No default package (issue 15 #19): say how to name one rather than ask the registry about someone else's.
    if (config.updatePackage === null) return selfVersion(current, null, UPDATE_PACKAGE_UNSET);
    if (local === '1' || config.updateRegistry === null) return selfVersion(current, null);
    if (!latestCache || Date.now() - latestCache.at > LATEST_CACHE_MS) {
      const r = await host.request('latestVersion', {}, { timeoutMs: 5000 });
      latestCache = r.ok && r.result.latest !== null ? { at: Date.now(), latest: r.result.latest } : null;
    }
    return selfVersion(current, latestCache?.latest ?? null);
  });

  app.post('/api/system/self-update', (req, reply) => install(req, reply, 'selfUpdate', { restart: true }));
}
