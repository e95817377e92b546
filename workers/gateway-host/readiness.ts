// Readiness of the gateway: the port answering is not enough. For a few
// seconds after it opens, OpenClaw refuses connects with a retryable
// UNAVAILABLE ("startup-sidecars"); the gateway is ready when a connect is
// answered by the gateway itself with anything else. A refusal such as a
// token mismatch still proves the gateway is up: it is a configuration
// problem, not a start failure, and waiting would not fix it.
import { GATEWAY_TOKEN_VARS } from '../../shared/channels/gateway-host.ts';
import { lookupEnv } from '../../shared/config.ts';
import { connectGateway } from '../../shared/gateway/client.ts';
import type { DeviceIdentity } from '../../shared/gateway/device-identity.ts';
import { GatewayError } from '../../shared/gateway/protocol.ts';
import { tcpReachable } from '../../shared/health/probes.ts';
import { readGatewayEnv, resolveGatewaySettings } from '../../shared/settings/index.ts';

const NOT_READY = new Set(['UNAVAILABLE', 'UNREACHABLE', 'TIMEOUT', 'CLOSED', 'PROTOCOL']);
const CONNECT_TIMEOUT_MS = 3000;



/**
 * The token the gateway itself uses: its real environment wins over its
 * .env (it inherits svc's environment), then svc's resolved settings.
 */
export function gatewayToken(stateDir: string, settingsFile: string): string {
  const fromEnv = lookupEnv('OPENCLAW_GATEWAY_TOKEN');
  if (fromEnv) return fromEnv;
  const file = readGatewayEnv(stateDir);
  for (const name of GATEWAY_TOKEN_VARS) {
    const v = Object.hasOwn(file, name) ? file[name]?.trim() : undefined;
    if (v) return v;
  }
  return resolveGatewaySettings({ settingsFile, gatewayStateDir: stateDir, lookupEnv }).token;
}

export const reachable = async (port: number): Promise<boolean> => (await tcpReachable('127.0.0.1', port, 1000)).ok;

export function createReadiness(opts: { stateDir: string; settingsFile: string; identity: () => DeviceIdentity; version: string }) {
  return async (port: number): Promise<boolean> => {
    if (!(await reachable(port))) return false;
    try {
      const session = await connectGateway({
        url: `ws://127.0.0.1:${port}`,
        token: gatewayToken(opts.stateDir, opts.settingsFile),
        identity: opts.identity(),
        version: opts.version,
        connectTimeoutMs: CONNECT_TIMEOUT_MS,
      });
      await session.close();
      return true;
    } catch (err) {
      if (err instanceof GatewayError) return !NOT_READY.has(err.code);
      // Anything else (identity file unreadable) is not the gateway's answer.
      return false;
    }
  };
}
