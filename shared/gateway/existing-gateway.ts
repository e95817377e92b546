// Issue 30 #5: is a gateway already set up or running on this machine? Read
// only: svc's gateway state directory (its openclaw.json, its `.env` token,
// `gateway.port` else 18789), then what answers on that port. A gateway
// "runs" when a connect through svc's own client (shared/gateway/client.ts,
// bounded at PROBE_TIMEOUT_MS) is answered by a gateway: accepted, refused
// (a token mismatch still proves a gateway is there) or UNAVAILABLE (its
// sidecars are still starting). The answer carries presence flags only: the
// token itself never leaves (existing-gateway-token.ts keeps it for the probe).
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { lookupEnv as processLookupEnv } from '../config.ts';
import { tcpReachable, wsHostPort, isLoopbackHost } from '../health/probes.ts';
import { gatewayPaths } from '../paths.ts';
import { gatewayAuthFromConfig, readGatewayConfig, resolveGatewaySettings, type LookupEnv } from '../settings/index.ts';
import { connectGateway } from './client.ts';
import { DEFAULT_GATEWAY_PORT, gatewayUrlFor } from './config-file.ts';
import type { ConnectionStatus } from './connection.ts';
import type { DeviceIdentity } from './device-identity.ts';
import { chooseGatewayToken, type TokenChoice } from './existing-gateway-token.ts';
import { GatewayError } from './protocol.ts';

/** The connect probe's bound: Setup asks on every visit. */
export const PROBE_TIMEOUT_MS = 3000;

/** What a connect on the gateway's port met. */
export const ProbeOutcome = z.enum([
  /** hello-ok: svc can connect with the token it would use. */
  'accepted',
  /** UNAVAILABLE: a gateway whose sidecars are still starting. */
  'starting',
  /** A gateway refused the connect (its code in probeCode: a token mismatch, ...). */
  'refused',
  /** Something listens on the port but did not answer as a gateway. */
  'not-a-gateway',
  /** Nothing listens on the port. */
  'not-running',
]);
export type ProbeOutcome = z.infer<typeof ProbeOutcome>;

/** GET /api/system/existing-gateway. */
export const ExistingGateway = z.object({
  /** A config, a token or a running gateway: something to connect to. */
  found: z.boolean(),
  /** svc's gateway state directory (OPENCLAW_STATE_DIR, default ~/.openclaw). */
  stateDir: z.string(),
  configExists: z.boolean(),
  envExists: z.boolean(),
  /** Where the gateway token is: presence only, never the value (fields named so the redactor leaves them be). */
  tokenPresent: z.boolean(),
  tokenSource: z.enum(['config', 'env-file', 'environment']).nullable(),
  /** The variable holding it (its name, never its value). */
  tokenVariable: z.string().nullable(),
  port: z.number().int(),
  /** Where the port comes from: gateway.port, the default 18789, or the caller's `port` (a gateway started with --port). */
  portSource: z.enum(['config', 'default', 'request']),
  /** Where svc would connect: ws://localhost:<port>. */
  url: z.string(),
  /** A gateway answers on the port (accepted, starting or refused). */
  running: z.boolean(),
  probe: ProbeOutcome,
  /** The gateway's refusal code when probe is 'refused'. */
  probeCode: z.string().nullable(),
  /** The gateway CLI (null: the gateway-host worker did not answer). */
  cli: z.object({ installed: z.boolean(), version: z.string().nullable() }).nullable(),
  svc: z.object({
    /** svc's settings already point at this gateway (loopback URL on its port, the same token). */
    pointsHere: z.boolean(),
    /** svc's gateway link is connected to this gateway now. */
    connected: z.boolean(),
  }),
});
export type ExistingGateway = z.infer<typeof ExistingGateway>;

export interface DetectOptions {
  stateDir: string;
  /** svc's settings.json, to tell whether svc already points here. */
  settingsFile: string;
  identity: () => DeviceIdentity;
  version: string;
  /** The gateway link's status now. */
  linkStatus: () => ConnectionStatus;
  /** The gateway CLI as the gateway-host worker sees it; null when it cannot say. */
  cli: () => Promise<{ installed: boolean; version: string | null } | null>;
  /** Look at this port instead of the configured one. */
  port?: number;
  lookupEnv?: LookupEnv;
  probeTimeoutMs?: number;
}

/** The detection and the settings a connect would save (a `${NAME}` reference or '', never a token). */
export interface Detection {
  view: ExistingGateway;
  settings: { gatewayUrl: string; gatewayToken: string };
}

/** A loopback ws:// URL on `port`. */
function isLoopbackOn(url: string | null, port: number): boolean {
  const hp = url ? wsHostPort(url) : null;
  return hp !== null && isLoopbackHost(hp.host) && hp.port === port;
}

async function probe(port: number, token: TokenChoice, opts: DetectOptions): Promise<{ outcome: ProbeOutcome; code: string | null }> {
  if (!(await tcpReachable('127.0.0.1', port, 1000)).ok) return { outcome: 'not-running', code: null };
  try {
    const session = await connectGateway({
      url: `ws://127.0.0.1:${port}`,
      token: token.secret,
      identity: opts.identity(),
      version: opts.version,
      connectTimeoutMs: opts.probeTimeoutMs ?? PROBE_TIMEOUT_MS,
    });
    await session.close();
    return { outcome: 'accepted', code: null };
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    if (err.code === 'UNAVAILABLE') return { outcome: 'starting', code: null };
    // No gateway frame came back: the port belongs to something else (or to a gateway that hung).
    if (['UNREACHABLE', 'TIMEOUT', 'CLOSED', 'PROTOCOL'].includes(err.code)) return { outcome: 'not-a-gateway', code: null };
    return { outcome: 'refused', code: err.code };
  }
}

export async function detectExistingGateway(opts: DetectOptions): Promise<Detection> {
  const lookupEnv = opts.lookupEnv ?? processLookupEnv;
  const paths = gatewayPaths(opts.stateDir);
  const { config } = readGatewayConfig(opts.stateDir);
  const configuredPort = gatewayAuthFromConfig(config).port;
  const port = opts.port ?? configuredPort ?? DEFAULT_GATEWAY_PORT;
  const token = chooseGatewayToken(opts.stateDir, config, lookupEnv);
  const [answer, cli] = await Promise.all([probe(port, token, opts), opts.cli()]);

  const resolved = resolveGatewaySettings({ settingsFile: opts.settingsFile, gatewayStateDir: opts.stateDir, lookupEnv });
  const pointsHere = isLoopbackOn(resolved.gatewayUrl, port) && resolved.token === token.secret;
  const link = opts.linkStatus();
  const running = answer.outcome === 'accepted' || answer.outcome === 'starting' || answer.outcome === 'refused';
  const configExists = existsSync(paths.configFile);
  const present = token.secret !== '';
  const view: ExistingGateway = {
    found: configExists || present || running,
    stateDir: opts.stateDir,
    configExists,
    envExists: existsSync(paths.envFile),
    tokenPresent: present,
    tokenSource: token.source,
    tokenVariable: token.variable,
    port,
    portSource: opts.port !== undefined ? 'request' : configuredPort !== null ? 'config' : 'default',
    url: gatewayUrlFor(port),
    running,
    probe: answer.outcome,
    probeCode: answer.code,
    cli,
    svc: { pointsHere, connected: link.state === 'connected' && isLoopbackOn(link.url, port) },
  };
  return { view, settings: { gatewayUrl: gatewayUrlFor(port), gatewayToken: token.settingsValue } };
}
