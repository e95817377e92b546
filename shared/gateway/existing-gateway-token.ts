// Issue 30 #5: where the token of a gateway set up on this machine is, and
// what svc saves to use it, without ever copying the secret. The gateway's
// own order decides: a `gateway.auth.token` in openclaw.json wins (a literal,
// or a `${NAME}` reference resolved from the environment, then `.env`);
// without one, `OPENCLAW_GATEWAY_TOKEN` (the environment, then `.env`; the
// spec's `GATEWAY_AUTH_TOKEN` too). What svc saves is a `${NAME}` reference
// when the token is a variable, and an empty token when it is a literal in
// the config: svc's settings then fall back to the gateway's config for the
// token (shared/settings/resolve.ts), so settings.json holds no secret.
import { GATEWAY_TOKEN_VARS } from '../channels/gateway-host.ts';
import { lookupEnv as processLookupEnv } from '../config.ts';
import { gatewayAuthFromConfig, readGatewayEnv, resolveTemplateVar, templateName, type LookupEnv } from '../settings/index.ts';

export type TokenSource = 'config' | 'env-file' | 'environment';

export interface TokenChoice {
  /** The token itself: for the probe's connect only, never for an answer, a log line or settings. */
  secret: string;
  source: TokenSource | null;
  /** The variable that holds it (never its value), null for a literal in the config or no token. */
  variable: string | null;
  /** What settings.json's gatewayToken becomes on connect: `${NAME}`, or '' (no token, or the config's literal). */
  settingsValue: string;
}

const NONE: TokenChoice = { secret: '', source: null, variable: null, settingsValue: '' };

/** The token as the gateway in `stateDir` reads it (config already parsed by the caller). */
export function chooseGatewayToken(stateDir: string, config: unknown, lookupEnv: LookupEnv = processLookupEnv): TokenChoice {
  let env: Record<string, string> | undefined;
  const fileEnv = () => (env ??= readGatewayEnv(stateDir));
  const fromVariable = (name: string): TokenChoice | null => {
    const hit = resolveTemplateVar(name, lookupEnv, fileEnv);
    if (!hit) return null;
    return { secret: hit.value, source: hit.source === 'env' ? 'environment' : 'env-file', variable: name, settingsValue: `\${${name}}` };
  };
  const configured = gatewayAuthFromConfig(config).token;
  if (configured !== null) {
    const name = templateName(configured);
    if (name === null) return { secret: configured, source: 'config', variable: null, settingsValue: '' };
    return fromVariable(name) ?? { ...NONE, variable: name, settingsValue: `\${${name}}` };
  }
  for (const name of GATEWAY_TOKEN_VARS) {
    const hit = fromVariable(name);
    if (hit) return hit;
  }
  return NONE;
}
