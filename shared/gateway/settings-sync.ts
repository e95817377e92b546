// Pointing svc's own settings (settings.json: gateway URL and token) at the
// gateway it manages. Plain functions over the files: the caller passes the
// folders, where to save and how to reconnect the gateway link, so they run
// the same from the supervisor, a test or any later service.
//
// The token is saved as a `${NAME}` reference to the gateway env-file
// variable, never as its value: the reference resolves from svc's environment
// first and then the env file, the gateway's own order (it inherits svc's
// environment), and settings.json holds no secret. A move to another port of
// the gateway svc runs or configures here carries the stored token's binding
// along (`rebindToken`): it is the same gateway; a URL the user types does not
// (shared/settings/settings-file.ts).
import { GATEWAY_TOKEN_VARS } from '../channels/gateway-host.ts';
import { readGatewayEnv, resolveGatewaySettings, type LookupEnv, type SettingsPatch } from '../settings/index.ts';
import type { ConfigLog } from './config-file.ts';

/** Where svc keeps its gateway settings and how its connection picks up a change. */
export interface GatewaySettingsTarget {
  save(patch: SettingsPatch): void;
  /** The gateway link drops its session and connects with the saved settings. */
  reconnect(): void;
}

export interface GatewaySettingsSources {
  /** The gateway's state folder (its `.env` and `openclaw.json`). */
  gatewayStateDir: string;
  /** svc's settings.json. */
  settingsFile: string;
  lookupEnv: LookupEnv;
}

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * What settings would need to change to reach the gateway as it runs: the
 * token reference when the env file's token is not the one settings resolve
 * to, and (when `port` is known, after a start) a loopback URL on another
 * port. Settings naming a remote gateway keep their URL. Reads, never writes;
 * `tokenVariable` names the variable (never its value) for the log.
 */
export function gatewaySettingsDrift(src: GatewaySettingsSources, port: number | null): { patch: SettingsPatch; tokenVariable: string | null } {
  const env = readGatewayEnv(src.gatewayStateDir);
  const name = GATEWAY_TOKEN_VARS.find((n) => Object.hasOwn(env, n) && (env[n]?.trim() ?? '') !== '') ?? null;
  const resolved = resolveGatewaySettings({ settingsFile: src.settingsFile, gatewayStateDir: src.gatewayStateDir, lookupEnv: src.lookupEnv });
  const patch: SettingsPatch = {};
  if (name) {
    const effective = (name === 'OPENCLAW_GATEWAY_TOKEN' ? src.lookupEnv(name) : undefined) ?? env[name]?.trim();
    if (resolved.token !== effective) patch.gatewayToken = `\${${name}}`;
  }
  if (port !== null) {
    const url = new URL(resolved.gatewayUrl);
    const urlPort = Number(url.port || (url.protocol === 'wss:' ? 443 : 80));
    if (LOOPBACK_HOSTS.has(url.hostname) && urlPort !== port) {
      patch.gatewayUrl = `ws://localhost:${port}`;
      patch.rebindToken = true;
    }
  }
  return { patch, tokenVariable: patch.gatewayToken === undefined ? null : name };
}

/** Saves the drift, if any (never reconnects). True when settings changed. */
export function syncGatewaySettings(src: GatewaySettingsSources, port: number | null, save: GatewaySettingsTarget['save'], log: ConfigLog): boolean {
  const { patch, tokenVariable } = gatewaySettingsDrift(src, port);
  if (Object.keys(patch).length === 0) return false;
  save(patch);
  log.info({ tokenVariable: tokenVariable ?? undefined, gatewayUrl: patch.gatewayUrl }, 'gateway settings synced');
  return true;
}

/**
 * After a gateway start or restart completed on `port` (spec "POST
 * /api/system/gateway"): settings follow the gateway, then svc's connection
 * reconnects, whether or not settings changed (the gateway it knew is a new
 * process). Best effort: the gateway is up whatever happens to settings, so a
 * failure is logged and the start still completes.
 */
export function syncAfterGatewayStart(src: GatewaySettingsSources, port: number | null, target: GatewaySettingsTarget, log: ConfigLog): void {
  try {
    syncGatewaySettings(src, port, (p) => target.save(p), log);
    target.reconnect();
  } catch (err) {
    log.warn({ err }, 'token sync after gateway start failed');
  }
}

/** Saves where and how svc reaches a gateway svc just configured, then reconnects to it. */
export function connectSettingsTo(conn: { gatewayUrl: string; gatewayToken?: string }, target: GatewaySettingsTarget): void {
  target.save(
    conn.gatewayToken === undefined ? { gatewayUrl: conn.gatewayUrl, rebindToken: true } : { gatewayUrl: conn.gatewayUrl, gatewayToken: conn.gatewayToken },
  );
  target.reconnect();
}
