// Is there an svc dashboard on this port? A TCP check first (cheap and
// quick to fail), then GET /api/settings whose body must look like the
// settings view. A 401 whose JSON names the service `svc` is a dashboard
// behind the access gate; anything else listening there is not ours. A
// probe carries no cookie and no token (issue 15 #9): whatever listens on a
// probed port learns nothing. Only authorizeDashboard presents the token,
// and only discover.ts calls it, for svc's own recorded port.
import { connect } from 'node:net';
import { z } from 'zod';
import { getJson } from './http-json.ts';

export const PROBE_TIMEOUT_MS = 1500;
export const PROBE_HOST = '127.0.0.1';

export type ProbeResult = 'svc' | 'gated' | 'closed' | 'other';

const SettingsView = z.object({ gatewayUrl: z.string(), hasToken: z.boolean() });
const GateError = z.object({ service: z.literal('svc') });

/** True when something accepts a TCP connection on host:port within the timeout. */
export function tcpCheck(port: number, host = PROBE_HOST, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export interface ProbeOptions {
  host?: string;
  timeoutMs?: number;
}

export async function probeDashboard(port: number, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const host = opts.host ?? PROBE_HOST;
  const timeoutMs = opts.timeoutMs ?? PROBE_TIMEOUT_MS;
  if (!(await tcpCheck(port, host, timeoutMs))) return 'closed';
  const reply = await getJson({ host, port, path: '/api/settings', timeoutMs });
  if (!reply) return 'other';
  if (reply.status === 200 && SettingsView.safeParse(reply.body).success) return 'svc';
  if (reply.status === 401 && GateError.safeParse(reply.body).success) return 'gated';
  return 'other';
}

/** Whether the token opens the gate of the svc on this port: GET /api/settings with `Authorization: Bearer`. */
export async function authorizeDashboard(port: number, token: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  const reply = await getJson({ host: PROBE_HOST, port, path: '/api/settings', timeoutMs, bearer: token });
  return reply !== null && reply.status === 200 && SettingsView.safeParse(reply.body).success;
}
