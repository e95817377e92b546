// The settings the routes and the gateway connection read. Resolving them
// touches up to three files (settings.json, the gateway's .env and
// openclaw.json), so the result is cached briefly and dropped on every save:
// GET /api/settings is on the dashboard's hot path. Edits made by hand or by
// the gateway CLI show within CACHE_MS.
import { lookupEnv } from '../shared/config.ts';
import type { Logger } from '../shared/log.ts';
import {
  DEFAULT_GATEWAY_URL, readSettings, resolveFromStored, saveSettings, validateSettingsPatch, viewOf,
  type ResolvedGateway, type StoredSettings, type SettingsPatch, type SettingsPatchResult, type SettingsView,
} from '../shared/settings/index.ts';
import type { SettingsService } from './deps.ts';

export type { SettingsPatch, SettingsPatchResult, SettingsView as SettingsViewShape };

export const CACHE_MS = 1000;

const DEFAULT_STORED: StoredSettings = { gatewayUrl: DEFAULT_GATEWAY_URL, gatewayToken: '', studioAccessToken: null, firstRunDismissedAt: null };
const UNRESOLVED: ResolvedGateway = { gatewayUrl: DEFAULT_GATEWAY_URL, token: '', tokenSource: 'none' };

export interface CachedSettingsService extends SettingsService {
  /** The resolved gateway settings, token included: for the gateway connection and the redactor only. */
  resolved(): ResolvedGateway;
}

export function createSettingsService(opts: {
  settingsFile: string;
  gatewayStateDir: string;
  logger: Logger;
  now?: () => number;
}): CachedSettingsService {
  const now = opts.now ?? Date.now;
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
      const resolved = resolveFromStored(stored, resolveOpts.gatewayStateDir, lookupEnv, resolveOpts.onCorrupt);
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
