// Issue 30 #5: point svc at the gateway already set up on this machine. The
// story: detect it (existing-gateway.ts), refuse when there is nothing to
// connect to (a not_found DomainError), save svc's settings the way a gateway svc starts or configures
// is saved (settings-sync.ts connectSettingsTo: the URL ws://localhost:<port>
// and the token as a `${NAME}` reference, or empty when the gateway's config
// holds a literal, which svc then reads from there), reconnect the gateway
// link and report how that connect went. Nothing secret is saved or answered.
import { z } from 'zod';
import { notFound } from '../errors.ts';
import type { ConnectionStatus } from './connection.ts';
import { detectExistingGateway, type DetectOptions, type ExistingGateway } from './existing-gateway.ts';
import { connectSettingsTo, type GatewaySettingsTarget } from './settings-sync.ts';

/** How long the answer waits for the gateway link's connect (its own bound is 15 s). */
export const LINK_WAIT_MS = 20_000;

/** POST /api/system/connect-existing-gateway. */
export const ConnectExistingResult = z.object({
  ok: z.literal(true),
  gatewayUrl: z.string(),
  port: z.number().int(),
  /** How svc reaches the token: a `${NAME}` reference, the gateway's own config, or no token. */
  tokenFrom: z.enum(['reference', 'gateway-config', 'none']),
  tokenVariable: z.string().nullable(),
  /** svc's gateway link connected to it. */
  connected: z.boolean(),
  link: z.object({
    state: z.enum(['idle', 'connecting', 'connected', 'backoff', 'stopped']),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  }),
});
export type ConnectExistingResult = z.infer<typeof ConnectExistingResult>;

/** The refusal when there is nothing to connect to (a 404). */
export const noGatewayFound = (view: ExistingGateway) =>
  notFound(`No gateway found: ${view.stateDir} has no openclaw.json and no gateway token, and nothing answers a gateway connect on port ${view.port}`);

/** The link's status once its connect has ended (or `timeoutMs` passed). */
async function linkSettled(status: () => ConnectionStatus, timeoutMs: number): Promise<ConnectionStatus> {
  const deadline = Date.now() + timeoutMs;
  // reconfigure() makes the link idle and schedules a connect at once; it is settled once that has an outcome.
  while (['idle', 'connecting'].includes(status().state) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return status();
}

export async function connectExistingGateway(
  opts: DetectOptions & { target: GatewaySettingsTarget; linkWaitMs?: number },
): Promise<ConnectExistingResult> {
  const { view, settings } = await detectExistingGateway(opts);
  if (!view.found) throw noGatewayFound(view);
  connectSettingsTo(settings, opts.target);
  const link = await linkSettled(opts.linkStatus, opts.linkWaitMs ?? LINK_WAIT_MS);
  return {
    ok: true,
    gatewayUrl: settings.gatewayUrl,
    port: view.port,
    tokenFrom: settings.gatewayToken !== '' ? 'reference' : view.tokenSource === 'config' ? 'gateway-config' : 'none',
    tokenVariable: view.tokenVariable,
    connected: link.state === 'connected',
    link: { state: link.state, error: link.lastError },
  };
}
