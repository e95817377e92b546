// What svc says about itself in a gateway `connect`, and how a connect's
// params are built around a device proof. The proxy uses the same builder to
// rewrite a browser's connect (its own client fields, svc's token and proof).
import { z } from 'zod';
import type { DeviceIdentity } from './device-identity.ts';
import { PROTOCOL_VERSION } from './protocol.ts';
import { signConnect } from './signature.ts';

/**
 * What svc needs: read and write (agents, chat, sessions), admin (config.*,
 * exec.approvals.*), approvals (exec prompts) and pairing. `operator.talk*`
 * and `operator.questions` are not used.
 */
export const SVC_SCOPES = Object.freeze([
  'operator.read',
  'operator.write',
  'operator.admin',
  'operator.approvals',
  'operator.pairing',
]);

/** Without `exec-approvals`/`approvals` an exec that needs approval fails at once in a headless run. */
export const SVC_CAPS = Object.freeze(['exec-approvals', 'approvals', 'tool-events']);

export const ClientInfo = z.object({
  id: z.string().min(1),
  version: z.string().min(1),
  platform: z.string().min(1),
  mode: z.string().min(1),
  displayName: z.string().optional(),
  deviceFamily: z.string().optional(),
  modelIdentifier: z.string().optional(),
  timeZone: z.string().optional(),
  instanceId: z.string().optional(),
  buildId: z.string().optional(),
});
export type ClientInfo = z.infer<typeof ClientInfo>;

/** svc's own server-side connection: a trusted local backend in the gateway's terms. */
export function svcClientInfo(version: string): ClientInfo {
  return { id: 'gateway-client', version, platform: process.platform, mode: 'backend' };
}

export interface ConnectParamsInput {
  identity: DeviceIdentity;
  token: string;
  nonce: string;
  signedAt: number;
  client: ClientInfo;
  role?: string;
  scopes?: readonly string[];
  caps?: readonly string[];
  locale?: string;
  userAgent?: string;
  /** Fields a browser sent that are passed on as they were (permissions, commands, ...). */
  passthrough?: Record<string, unknown>;
}

export function buildConnectParams(p: ConnectParamsInput): Record<string, unknown> {
  const role = p.role ?? 'operator';
  const scopes = [...(p.scopes ?? SVC_SCOPES)];
  const device = signConnect(p.identity, {
    clientId: p.client.id,
    clientMode: p.client.mode,
    role,
    scopes,
    signedAt: p.signedAt,
    token: p.token,
    nonce: p.nonce,
    platform: p.client.platform,
    deviceFamily: p.client.deviceFamily,
  });
  return {
    ...p.passthrough,
    minProtocol: PROTOCOL_VERSION,
    maxProtocol: PROTOCOL_VERSION,
    client: p.client,
    role,
    scopes,
    caps: [...(p.caps ?? SVC_CAPS)],
    auth: { token: p.token },
    device,
    locale: p.locale ?? 'en-US',
    userAgent: p.userAgent ?? `svc/${p.client.version}`,
  };
}
