// The settings the routes and the gateway link read. Resolving them
// touches up to three files (settings.json, the gateway's .env and
// openclaw.json), so the result is cached briefly and dropped on every save:
// GET /api/settings is on the dashboard's hot path. Edits made by hand or by
// the gateway CLI show within CACHE_MS. A `${NAME}` token template that
// names one of svc's own secrets does not resolve; that is logged once per
// name (shared/settings/template-policy.ts).
import { lookupEnv } from '../../shared/config.ts';
import type { Logger } from '../../shared/log.ts';
import {
  DEFAULT_GATEWAY_URL, readSettings, resolveFromStored, saveSettings, validateSettingsPatch, viewOf,
  type ResolvedGateway, type StoredSettings, type SettingsPatch, type SettingsPatchResult, type SettingsView, type TemplatePolicy,
} from '../../shared/settings/index.ts';

/** The settings as routes see them (AppDeps.settings). */
export interface SettingsService {
  view(): SettingsView;
  validate(body: unknown): SettingsPatchResult;
  save(patch: SettingsPatch): void;
  /** The resolved gateway URL (never the token). */
  gatewayUrl(): string;
}

export const CACHE_MS = 1000;

const DEFAULT_STORED: StoredSettings = { gatewayUrl: DEFAULT_GATEWAY_URL, gatewayToken: '', gatewayTokenOrigin: null, studioAccessToken: null, firstRunDismissedAt: null };
const UNRESOLVED: ResolvedGateway = { gatewayUrl: DEFAULT_GATEWAY_URL, token: '', tokenSource: 'none' };

export interface CachedSettingsService extends SettingsService {
  /** The resolved gateway settings, token included: for the gateway link, the proxy and the redactor only. */
  resolved(): ResolvedGateway;
}

export function createSettingsService(opts: {
  settingsFile: string;
  gatewayStateDir: string;
  logger: Logger;
  /** The names svc keeps in its vault: a token template may not name them either. */
  heldSecretNames?: () => readonly string[];
  now?: () => number;
}): CachedSettingsService {
  const now = opts.now ?? Date.now;
  const refusedLogged = new Set<string>();
  const policy: TemplatePolicy = {
    heldSecretNames: opts.heldSecretNames,
    onRefused: (name) => {
      if (refusedLogged.has(name)) return;
      refusedLogged.add(name);
      opts.logger.warn(
        { variable: name },
        'the gateway token template names a secret svc holds (its own secrets, provider keys and vault names are never sent as the gateway token); it is left unresolved',
      );
    },
  };
  const resolveOpts = {
    settingsFile: opts.settingsFile,
    gatewayStateDir: opts.gatewayStateDir,
    lookupEnv,
    onCorrupt: (err: Error) => opts.logger.warn({ err }, 'a settings or gateway config file is corrupt; using defaults'),
  };
  let cache: { at: number; view: SettingsView; resolved: ResolvedGateway } | null = null;
  let loading = false;
  const load = () => {
    if (cache && now() - cache.at < CACHE_MS) return cache;
    // Re-entered from inside a load: the corrupt-file warning is logged, the
    // logger's redactor asks for the token in play, which would load again,
    // without end. The inner call gets what is known so far.
    if (loading) return cache ?? { at: 0, view: viewOf(DEFAULT_STORED, UNRESOLVED), resolved: UNRESOLVED };
    loading = true;
    try {
      // One read of each file serves both the view and the resolved token.
      const { settings: stored } = readSettings(resolveOpts.settingsFile, resolveOpts.onCorrupt);
      const resolved = resolveFromStored(stored, resolveOpts.gatewayStateDir, lookupEnv, resolveOpts.onCorrupt, policy);
      cache = { at: now(), view: viewOf(stored, resolved), resolved };
      return cache;
    } finally {
      loading = false;
    }
  };
  return {
    view: () => load().view,
    resolved: () => load().resolved,
    gatewayUrl: () => load().resolved.gatewayUrl,
    validate: validateSettingsPatch,
    save(patch) {
      cache = null;
      saveSettings(opts.settingsFile, patch, resolveOpts.onCorrupt);
    },
  };
}
