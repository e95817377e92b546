// The one place that reads the environment. Everything else receives the
// typed, frozen Config built here (workers get it through workerData). Each
// setting is declared once, in shared/config-settings.ts; the Config type,
// EnvSchema and svc's secret names below are read off that table, so a
// setting has exactly one name, one default and one parser.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { childMayInherit, type ChildKind } from './child-env-names.ts';
import { envNamesOf, type AnySetting, type RawOf, type ReportField, type Setting, type SettingContext } from './config-setting.ts';
import { SETTINGS, svcHomeFrom, type Settings } from './config-settings.ts';

export type { ChildKind };
export { expandTilde, parseOtlpHeaders, parsePort } from './config-setting.ts';
export { DEFAULT_APPROVAL_TTL_MS, DEFAULT_RATE_LIMIT_PER_MINUTE, LOG_LEVELS, parseRateLimit, SETTINGS, type LogLevel } from './config-settings.ts';

/** What loadConfig gives: one readonly field per entry of SETTINGS, typed by what the entry builds. */
export type Config = { readonly [K in keyof Settings]: ReturnType<Settings[K]['value']> };

/** Every entry, as code that walks the table sees it. */
export const SETTING_ENTRIES: ReadonlyArray<readonly [keyof Config, AnySetting]> = Object.entries(SETTINGS) as Array<[keyof Config, AnySetting]>;

/** Every variable svc reads, each with its parser (docs/configuration.md documents each; a test checks). */
export const EnvSchema = z.object(Object.fromEntries(SETTING_ENTRIES.flatMap(([, s]) => envNamesOf(s).map((name) => [name, s.schema]))));

/**
 * svc's own secrets that live in its environment (the entries marked
 * `secret`). They never reach a child process (childEnv) and a `${NAME}`
 * template never resolves them: a template is text a user (or a page that
 * can write settings) chose, and resolving it would hand the secret to
 * whatever the template feeds.
 */
export const SVC_SECRET_ENV_NAMES: readonly string[] = Object.freeze(SETTING_ENTRIES.flatMap(([, s]) => (s.secret ? envNamesOf(s) : [])));

/** True when `name` is one of svc's own secret variables (case-insensitive, as Windows reads them). */
export function isSvcSecretEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  return SVC_SECRET_ENV_NAMES.includes(upper);
}

function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  return process.cwd();
}

/** An entry's raw value(s) out of the parsed environment (EnvSchema gave each name the entry's own schema). */
function rawOf<E extends string | readonly string[], S extends z.ZodType>(s: Setting<E, S, unknown, ReportField | undefined>, parsed: Record<string, unknown>): RawOf<E, S> {
  const raw = typeof s.env === 'string' ? parsed[s.env] : Object.fromEntries(envNamesOf(s as AnySetting).map((n) => [n, parsed[n]]));
  return raw as RawOf<E, S>;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed: Record<string, unknown> = EnvSchema.parse(env);
  // svcHome first: the database and catalog paths default into it.
  const ctx: SettingContext = { packageRoot: findPackageRoot(), svcHome: svcHomeFrom(rawOf(SETTINGS.svcHome, parsed)) };
  const config = Object.fromEntries(SETTING_ENTRIES.map(([key, s]) => [key, s.value(rawOf(s, parsed), ctx)]));
  // Each field is what its entry's value() returned: the Config type says exactly that.
  return Object.freeze(config) as Config;
}

/**
 * Reads one environment variable by name, for the features that resolve a
 * user-written `${NAME}` template (settings token, gateway config). Kept here
 * so that this file stays the only reader of `process.env`.
 */
export function lookupEnv(name: string): string | undefined {
  const v = process.env[name];
  return v === undefined || v === '' ? undefined : v;
}

/** svc's own variables: its secrets and every `SVC_*` setting. No child but svc itself sees them. */
export function isSvcOwnEnvName(name: string): boolean {
  return isSvcSecretEnvName(name) || name.toUpperCase().startsWith('SVC_');
}

/**
 * The environment of a program svc runs, built from an allowlist (issue 15
 * #2, shared/child-env-names.ts): the system essentials every child needs,
 * plus what its `kind` needs (npm's settings, the gateway's own variables),
 * plus the caller's overrides (undefined removes). svc's secrets and other
 * `SVC_*` variables are never copied, and an override naming one is a bug.
 */
export function childEnvFrom(
  source: NodeJS.ProcessEnv,
  overrides: Record<string, string | undefined> = {},
  kind: ChildKind = 'system',
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(source)) {
    if (v !== undefined && !isSvcOwnEnvName(k) && childMayInherit(k, kind)) env[k] = v;
  }
  for (const [k, v] of Object.entries(overrides)) {
    if (isSvcOwnEnvName(k)) throw new Error(`childEnv: ${k} is svc's own variable and never goes to a child`);
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** childEnvFrom over this process's environment. */
export function childEnv(overrides: Record<string, string | undefined> = {}, kind: ChildKind = 'system'): NodeJS.ProcessEnv {
  return childEnvFrom(process.env, overrides, kind);
}

/**
 * The one exception to childEnv: svc starting svc (the launcher starting the
 * server, self-update restarting through svc's launcher). That child is svc
 * itself, run for the same user, and it needs every setting svc reads: the
 * access token (or the restarted gate would be off), the vault key, the OTLP
 * and search settings, and the provider keys and `${NAME}` template values
 * it resolves from its environment (spec "State directory": runtime keys
 * resolve from the process environment first). Only those two call sites use
 * it, and only to run an svc entry point.
 */
export function svcSelfEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}
