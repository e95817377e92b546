// Which gateway URL and token svc uses, following the spec's resolution order:
// a stored `${NAME}` template from the environment, then from the gateway's
// .env; failing a usable token, the gateway's own config (token and port);
// otherwise the literal stored value. The environment is read only through
// the injected `lookupEnv` (shared/config.ts owns process.env). A template
// that names one of svc's own secrets never resolves (template-policy.ts).
// A stored token (literal or template) is used only for the origin it was
// given for (settings-file.ts): for another origin it is withheld, nothing
// else stands in for it, and `tokenNeededFor` says so.
import { gatewayPaths } from '../paths.ts';
import { gatewayAuthFromConfig, readGatewayConfig, readGatewayEnv } from './gateway-files.ts';
import { originOf, readSettings, type OnCorrupt, type StoredSettings } from './settings-file.ts';
import { isRefusedTemplateName, type TemplatePolicy } from './template-policy.ts';

export type { TemplatePolicy };

export type LookupEnv = (name: string) => string | undefined;

export type TokenSource = 'settings' | 'env' | 'gateway-env' | 'gateway-config' | 'literal' | 'none';

export interface ResolveOptions {
  settingsFile: string;
  gatewayStateDir: string;
  lookupEnv: LookupEnv;
  /** Told (with a message free of file contents) when settings.json or openclaw.json is corrupt. */
  onCorrupt?: OnCorrupt;
  /** Secret names refused beyond svc's own and the provider keys, and who is told of a refusal. */
  policy?: TemplatePolicy;
}

export interface ResolvedGateway {
  gatewayUrl: string;
  /** The raw token: for the gateway connection only, never for a response or a log. */
  token: string;
  tokenSource: TokenSource;
  /**
   * Present when a token is stored for another origin than the URL's: the
   * URL's origin, which gets no token and no device proof until a token is
   * given for it (the gateway link reports `gateway token needed for <origin>`).
   */
  tokenNeededFor?: string;
}

/** The gateway link's state while a token is withheld; names the origin, never a secret. */
export const tokenNeededMessage = (origin: string): string => `gateway token needed for ${origin}`;

/** What GET /api/settings shows: never the token itself. */
export interface SettingsView {
  gatewayUrl: string;
  hasToken: boolean;
  firstRunDismissedAt: number | null;
  /** Present when the stored token is for another origin: the URL's origin, which needs a token of its own. */
  tokenNeededFor?: string;
}

const TEMPLATE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** The variable name of a `${NAME}` template, or null when `value` is not one. */
export function templateName(value: string): string | null {
  return TEMPLATE.exec(value.trim())?.[1] ?? null;
}

/**
 * Resolves a variable: the process environment first, then the gateway's
 * .env (read only if needed). A name the policy refuses (svc's own secrets,
 * provider keys, vault names) resolves to nothing, whatever is set.
 */
export function resolveTemplateVar(
  name: string,
  lookupEnv: LookupEnv,
  gatewayEnv: () => Record<string, string>,
  policy: TemplatePolicy = {},
): { value: string; source: 'env' | 'gateway-env' } | null {
  if (isRefusedTemplateName(name, policy.heldSecretNames)) {
    policy.onRefused?.(name);
    return null;
  }
  const fromEnv = lookupEnv(name)?.trim();
  if (fromEnv) return { value: fromEnv, source: 'env' };
  const fileEnv = gatewayEnv();
  const fromFile = Object.hasOwn(fileEnv, name) ? fileEnv[name]?.trim() : undefined;
  return fromFile ? { value: fromFile, source: 'gateway-env' } : null;
}

/** Resolution from already-read settings; reads only the gateway files it needs. */
export function resolveFromStored(
  stored: StoredSettings,
  gatewayStateDir: string,
  lookupEnv: LookupEnv,
  onCorrupt?: OnCorrupt,
  policy: TemplatePolicy = {},
): ResolvedGateway {
  let envCache: Record<string, string> | undefined;
  const gatewayEnv = () => (envCache ??= readGatewayEnv(gatewayStateDir));
  // What is used when nothing resolves: the stored URL and the stored text.
  const literal = { gatewayUrl: stored.gatewayUrl, token: stored.gatewayToken };
  // A token given for another origin is never sent here, and no other token stands in for it.
  if (literal.token !== '' && stored.gatewayTokenOrigin !== null) {
    const origin = originOf(literal.gatewayUrl);
    if (origin !== stored.gatewayTokenOrigin) {
      return { gatewayUrl: literal.gatewayUrl, token: '', tokenSource: 'none', tokenNeededFor: origin ?? literal.gatewayUrl };
    }
  }

  const name = templateName(literal.token);
  if (literal.token !== '' && name === null) return { ...literal, tokenSource: 'settings' };
  if (name !== null) {
    const hit = resolveTemplateVar(name, lookupEnv, gatewayEnv, policy);
    if (hit) return { gatewayUrl: literal.gatewayUrl, token: hit.value, tokenSource: hit.source };
  }

  // No usable token yet: the gateway's own config may supply token and port.
  const { config, corrupt } = readGatewayConfig(gatewayStateDir);
  if (corrupt) onCorrupt?.(new Error(`gateway config ${gatewayPaths(gatewayStateDir).configFile} is not valid JSON`));
  const auth = gatewayAuthFromConfig(config);
  if (auth.token !== null) {
    const configName = templateName(auth.token);
    const token = configName === null ? auth.token : resolveTemplateVar(configName, lookupEnv, gatewayEnv, policy)?.value;
    if (token) {
      const gatewayUrl = auth.port !== null ? `ws://localhost:${auth.port}` : literal.gatewayUrl;
      return { gatewayUrl, token, tokenSource: 'gateway-config' };
    }
  }
  return { ...literal, tokenSource: literal.token === '' ? 'none' : 'literal' };
}

/** The gateway URL and token svc should use now. Never throws on bad files. */
export function resolveGatewaySettings(opts: ResolveOptions): ResolvedGateway {
  const { settings } = readSettings(opts.settingsFile, opts.onCorrupt);
  return resolveFromStored(settings, opts.gatewayStateDir, opts.lookupEnv, opts.onCorrupt, opts.policy);
}

/** The settings view from already-read settings and their resolution (no I/O). */
export function viewOf(stored: StoredSettings, resolved: ResolvedGateway): SettingsView {
  return {
    gatewayUrl: resolved.gatewayUrl,
    hasToken: resolved.token !== '',
    firstRunDismissedAt: stored.firstRunDismissedAt,
    ...(resolved.tokenNeededFor === undefined ? {} : { tokenNeededFor: resolved.tokenNeededFor }),
  };
}

/** The settings view: the effective URL, whether a token is in play, the first-run flag. */
export function settingsView(opts: ResolveOptions): SettingsView {
  const { settings } = readSettings(opts.settingsFile, opts.onCorrupt);
  return viewOf(settings, resolveFromStored(settings, opts.gatewayStateDir, opts.lookupEnv, opts.onCorrupt, opts.policy));
}
