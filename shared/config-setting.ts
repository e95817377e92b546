// What one setting is (shared/config-settings.ts lists them) and the parsers
// the settings share. A setting is declared once: the variables it reads,
// how each raw value parses, how the Config value is built, its line in
// docs/configuration.md and where the boot report shows it. EnvSchema, the
// Config type, the boot report's blocks, svc's secret names and the docs
// table are all read off these declarations, so none can drift from another.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/** What a setting's value is built from besides its own variables. */
export interface SettingContext {
  /** The package's root folder (where package.json lives). */
  readonly packageRoot: string;
  /** svc's state directory, resolved: the default folder of the paths below it. */
  readonly svcHome: string;
}

/** A boot report field: `config.<name>` or `resolved.<name>` (spec "Boot report"). */
export type ReportField = `config.${string}` | `resolved.${string}`;

/** The raw value(s) a setting is built from: one variable's parsed value, or a record of several. */
export type RawOf<E extends string | readonly string[], S extends z.ZodType> = E extends string
  ? z.output<S>
  : { readonly [N in E extends readonly (infer M extends string)[] ? M : never]: z.output<S> };

export interface Setting<E extends string | readonly string[], S extends z.ZodType, T, R extends ReportField | undefined> {
  /** The variable(s) read; none for a value svc works out itself. */
  readonly env: E;
  /** How each variable's raw string parses (blank counts as unset). */
  readonly schema: S;
  // A method, so that any entry is assignable to AnySetting (method parameters are checked bivariantly).
  value(raw: RawOf<E, S>, ctx: SettingContext): T;
  /** docs/configuration.md: the default column as written (markdown) and the meaning column; no row when `doc` is absent. */
  readonly default?: string;
  readonly doc?: string;
  /** Sent, stored or used as a credential: never reported, never handed to a child, never resolved by a `${NAME}` template. */
  readonly secret?: true;
  /** The boot report field that shows this value; a secret has none (the type forbids it). */
  readonly report?: R;
  /** A whole number's accepted range (the docs list it under the table). */
  readonly range?: { readonly min: number; readonly max: number; readonly elseUnset?: true };
}

/** Any entry of the table, as code that walks all of them sees it. */
export type AnySetting = Setting<string | readonly string[], z.ZodType, unknown, ReportField | undefined>;

/** The names an entry reads. */
export const envNamesOf = (s: AnySetting): readonly string[] => (typeof s.env === 'string' ? [s.env] : s.env);

// `const` keeps the variable names and the report field as literals, so the Config type and the report blocks see them.
export function setting<const E extends string | readonly string[], S extends z.ZodType, T, const R extends ReportField | undefined = undefined>(
  def: Setting<E, S, T, R> & ({ secret?: undefined } | { secret: true; report?: undefined }),
): Setting<E, S, T, R> {
  return def;
}

/** Expands a leading `~` to the user's home directory. */
export function expandTilde(p: string): string {
  if (p === '~') return homedir();
  if (p.startsWith('~/')) return join(homedir(), p.slice(2));
  return p;
}

export const abs = (p: string): string => resolve(expandTilde(p));

/** A port is valid when it is an integer 1..65535 written in decimal. */
export function parsePort(raw: string | undefined): number | null {
  if (raw === undefined || !/^\d{1,5}$/.test(raw.trim())) return null;
  const n = Number(raw.trim());
  return n >= 1 && n <= 65535 ? n : null;
}

export const truthy = (v: string | undefined): boolean => v === '1' || v?.toLowerCase() === 'true';

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
export const optionalString = z.preprocess(blankToUndefined, z.string().optional());

/** A whole number in [min, max] written in decimal; anything else (unset, blank, out of range) is undefined: the default. */
export const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : undefined),
    z.number().int().min(min).max(max).optional().catch(undefined),
  );

/**
 * A whole-number setting: the range and the default are written once, and
 * the schema, the value, the docs' default column and its range line follow.
 * `fallback: null` is a setting that is unset unless given.
 */
export function whole<const E extends string, const F extends number | null, const R extends ReportField | undefined = undefined>(def: {
  env: E; min: number; max?: number; fallback: F; doc: string; report?: R;
}): Setting<E, ReturnType<typeof wholeNumber>, number | Extract<F, null>, R> {
  const { env, min, max = Number.MAX_SAFE_INTEGER, fallback, doc, report } = def;
  return {
    env,
    schema: wholeNumber(min, max),
    // F is a number or null, and so is what this gives: TypeScript cannot follow the ?? through the generic.
    value: (v) => (v ?? fallback) as number | Extract<F, null>,
    default: fallback === null ? 'unset' : `\`${fallback}\``,
    doc,
    ...(report === undefined ? {} : { report }),
    range: fallback === null ? { min, max, elseUnset: true } : { min, max },
  };
}

/**
 * OTLP headers as the OpenTelemetry spec writes them: `key=value` pairs
 * separated by commas, values percent-decoded. A malformed pair is skipped.
 */
export function parseOtlpHeaders(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? '').split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const key = pair.slice(0, eq).trim();
    let value = pair.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // Not percent-encoded after all (a bare %): the value is used as written.
    }
    if (key !== '' && key !== '__proto__') out[key] = value;
  }
  return out;
}
