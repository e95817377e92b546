// svc's settings file (`<state_dir>/settings.json`): reading it with defaults,
// and saving a partial update atomically, under `settings.json.lock` (the
// routes, the gateway-host service and another svc process all save here). The
// file holds the gateway token, so it is written 0600 and its contents never
// reach an error message.
//
// The token is bound to the origin (scheme, host, port) it was given for:
// a save that moves the URL to another origin without a new token keeps the
// token and records that origin (`gateway.tokenFor`), and resolve.ts
// withholds it (and the gateway link its device proof) until a token is given
// for the new origin or the URL goes back (which drops `tokenFor` again). No
// `tokenFor` = the token is for the stored URL.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { withFileLock } from '../file-lock.ts';
import { isMissingFile, writeFileAtomic } from '../fs-safe.ts';
import { messageOf } from '../errors.ts';

export const DEFAULT_GATEWAY_URL = 'ws://localhost:18789';

/** The settings as stored, with the spec's defaults applied. */
export interface StoredSettings {
  gatewayUrl: string;
  /** The stored token as written (may be a `${NAME}` template); '' = none. */
  gatewayToken: string;
  /** The origin the token was given for when the URL has moved elsewhere (originOf); null = the stored URL's own. */
  gatewayTokenOrigin: string | null;
  studioAccessToken: string | null;
  firstRunDismissedAt: number | null;
}

export interface SettingsRead {
  settings: StoredSettings;
  /** The file exists but is not a JSON object; defaults were used. */
  corrupt: boolean;
}

/** Called with a sanitised error (no file contents) when settings.json is corrupt. */
export type OnCorrupt = (err: Error) => void;

const PlainObject = z.record(z.string(), z.unknown());

// A hand-edited file may hold a wrong-typed field: that field reads as absent
// rather than the whole file being thrown away.
const SettingsOnDisk = z.object({
  gateway: z
    .object({
      url: z.string().optional().catch(undefined),
      token: z.string().optional().catch(undefined),
      tokenFor: z.string().optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
  studioAccessToken: z.string().optional().catch(undefined),
  firstRunDismissedAt: z.number().optional().catch(undefined),
});

type RawRead = { kind: 'missing' } | { kind: 'corrupt'; error: Error } | { kind: 'ok'; data: Record<string, unknown> };

/** Reads the file's top-level object. I/O errors other than "missing" are thrown. */
function readRaw(settingsFile: string): RawRead {
  let text: string;
  try {
    text = readFileSync(settingsFile, 'utf8');
  } catch (err) {
    if (isMissingFile(err)) return { kind: 'missing' };
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    // V8's message quotes the input, which may contain the token: replaced by
    // a message that names only the file.
    return { kind: 'corrupt', error: new Error(`settings file ${settingsFile} is not valid JSON`) };
  }
  const obj = PlainObject.safeParse(parsed);
  if (!obj.success || Array.isArray(parsed)) {
    return { kind: 'corrupt', error: new Error(`settings file ${settingsFile} does not hold a JSON object`) };
  }
  return { kind: 'ok', data: obj.data };
}

function toStored(data: Record<string, unknown>): StoredSettings {
  const s = SettingsOnDisk.parse(data);
  const url = s.gateway?.url?.trim() ?? '';
  const access = s.studioAccessToken?.trim() ?? '';
  const dismissed = s.firstRunDismissedAt;
  const tokenFor = s.gateway?.tokenFor?.trim() ?? '';
  return {
    gatewayUrl: url === '' ? DEFAULT_GATEWAY_URL : url,
    gatewayToken: s.gateway?.token?.trim() ?? '',
    gatewayTokenOrigin: tokenFor === '' ? null : tokenFor,
    studioAccessToken: access === '' ? null : access,
    firstRunDismissedAt: dismissed !== undefined && Number.isFinite(dismissed) ? dismissed : null,
  };
}

const DEFAULTS: StoredSettings = Object.freeze({
  gatewayUrl: DEFAULT_GATEWAY_URL,
  gatewayToken: '',
  gatewayTokenOrigin: null,
  studioAccessToken: null,
  firstRunDismissedAt: null,
});

/** Reads settings.json with defaults. Never throws: a corrupt or unreadable file reads as defaults. */
export function readSettings(settingsFile: string, onCorrupt?: OnCorrupt): SettingsRead {
  let raw: RawRead;
  try {
    raw = readRaw(settingsFile);
  } catch (err) {
    // Unreadable (permissions, a directory in the way): reads must not throw,
    // so it is reported like a corrupt file. fs messages name only the path.
    raw = { kind: 'corrupt', error: new Error(`settings file unreadable: ${messageOf(err)}`) };
  }
  if (raw.kind === 'ok') return { settings: toStored(raw.data), corrupt: false };
  if (raw.kind === 'corrupt') onCorrupt?.(raw.error);
  return { settings: { ...DEFAULTS }, corrupt: raw.kind === 'corrupt' };
}

/** The top-level `studioAccessToken`, trimmed; null when blank, absent or unreadable. */
export function readStudioAccessToken(settingsFile: string): string | null {
  return readSettings(settingsFile).settings.studioAccessToken;
}

/** A validated partial update; omitted fields stay unchanged. */
export interface SettingsPatch {
  gatewayUrl?: string;
  gatewayToken?: string;
  firstRunDismissedAt?: number;
  /**
   * svc's own move of the URL to the gateway it runs or configures on this
   * machine (shared/gateway/settings-sync.ts: a new port): the stored token
   * is that gateway's and goes with the URL. Never set from a request body.
   */
  rebindToken?: true;
}

export const SETTINGS_ERRORS = Object.freeze({
  bodyRequired: 'JSON body required',
  badUrl: 'gatewayUrl must be a ws:// or wss:// URL',
} as const);

export type SettingsPatchResult =
  | { ok: true; patch: SettingsPatch }
  | { ok: false; error: (typeof SETTINGS_ERRORS)[keyof typeof SETTINGS_ERRORS] };

/**
 * What a gateway token is bound to: the URL's origin (`ws://host:port`, the
 * scheme's default port left out), so a path or query change keeps the token
 * and a host, port or scheme change does not. null when the URL does not parse.
 */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url.trim() === '' ? DEFAULT_GATEWAY_URL : url.trim());
    return `${u.protocol}//${u.host}`;
  } catch {
    // A hand-edited URL svc cannot parse: no origin, so no token is ever sent to it.
    return null;
  }
}

function isWsUrlOrEmpty(s: string): boolean {
  if (s === '') return true; // empty clears back to the default
  try {
    const { protocol } = new URL(s);
    return protocol === 'ws:' || protocol === 'wss:';
  } catch {
    // Not parseable as a URL at all: simply not a ws/wss URL.
    return false;
  }
}

// The spec's field rules, where they are defined: a bad gatewayUrl is a 400,
// a wrong-typed gatewayToken or firstRunDismissedAt is ignored (zod 4's
// z.number() already rejects NaN and Infinity, so "finite" is covered).
const SettingsPatchBody = z.object({
  gatewayUrl: z.string().trim().refine(isWsUrlOrEmpty).optional(),
  gatewayToken: z.string().trim().optional().catch(undefined),
  firstRunDismissedAt: z.number().optional().catch(undefined),
});

/** Validates a POST /api/settings body into a patch, with the spec's exact error strings. */
export function validateSettingsPatch(body: unknown): SettingsPatchResult {
  const proto: unknown = typeof body === 'object' && body !== null ? Object.getPrototypeOf(body) : undefined;
  if (proto !== Object.prototype && proto !== null) return { ok: false, error: SETTINGS_ERRORS.bodyRequired };
  const parsed = SettingsPatchBody.safeParse(body);
  // gatewayUrl is the only field whose failure is not caught above.
  if (!parsed.success) return { ok: false, error: SETTINGS_ERRORS.badUrl };
  const patch: SettingsPatch = {};
  if (parsed.data.gatewayUrl !== undefined) patch.gatewayUrl = parsed.data.gatewayUrl;
  if (parsed.data.gatewayToken !== undefined) patch.gatewayToken = parsed.data.gatewayToken;
  if (parsed.data.firstRunDismissedAt !== undefined) patch.firstRunDismissedAt = parsed.data.firstRunDismissedAt;
  return { ok: true, patch };
}

/**
 * Applies `patch` to settings.json (read-modify-write, holding its lock) and
 * returns the result. Unknown keys are kept; a corrupt file is replaced
 * starting from `{}`. Throws on I/O failure and when another writer holds the
 * lock past the wait (messages name paths, never contents).
 */
export function saveSettings(settingsFile: string, patch: SettingsPatch, onCorrupt?: OnCorrupt): StoredSettings {
  return withFileLock(settingsFile, () => saveLocked(settingsFile, patch, onCorrupt));
}

function saveLocked(settingsFile: string, patch: SettingsPatch, onCorrupt?: OnCorrupt): StoredSettings {
  const raw = readRaw(settingsFile);
  if (raw.kind === 'corrupt') onCorrupt?.(raw.error);
  const data: Record<string, unknown> = raw.kind === 'ok' ? { ...raw.data } : {};
  if (patch.gatewayUrl !== undefined || patch.gatewayToken !== undefined) {
    const prev = PlainObject.safeParse(data.gateway);
    const gateway: Record<string, unknown> = prev.success && !Array.isArray(data.gateway) ? { ...prev.data } : {};
    const before = toStored(data);
    if (patch.gatewayUrl !== undefined) gateway.url = patch.gatewayUrl;
    if (patch.gatewayToken !== undefined) gateway.token = patch.gatewayToken;
    // A token given in this save (or carried by svc's own move) is for the URL stored now; else it stays
    // bound where it was: its recorded origin, or the URL it was in use with until now.
    const token = patch.gatewayToken ?? before.gatewayToken;
    const boundTo = patch.gatewayToken !== undefined || patch.rebindToken ? null : (before.gatewayTokenOrigin ?? originOf(before.gatewayUrl) ?? before.gatewayUrl);
    if (token === '' || boundTo === null || boundTo === originOf(patch.gatewayUrl ?? before.gatewayUrl)) delete gateway.tokenFor;
    else gateway.tokenFor = boundTo;
    data.gateway = gateway;
  }
  if (patch.firstRunDismissedAt !== undefined) data.firstRunDismissedAt = patch.firstRunDismissedAt;
  writeFileAtomic(settingsFile, `${JSON.stringify(data, null, 2)}\n`);
  return toStored(data);
}
