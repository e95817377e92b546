// Prices the operator sets in svc (GET/PUT /api/governance/model-prices): an
// object `{ "<provider>/<model>" | "<model>": { input, output, cacheRead?,
// cacheWrite? } }` in USD per million tokens, stored whole in svc's settings
// table (SVC_PRICES_KEY), where every thread's price book reads it. They come
// first in the price order (price-table.ts): a price set in svc is the
// operator's word over the gateway config and the library. A `<model>` key
// prices that model at every provider; a family name prices its snapshots
// (`gpt-4o` prices `gpt-4o-2024-08-06` unless that has a price of its own).
import { z } from 'zod';
import type { SettingsTable } from '../db/settings-table.ts';
import type { ConfiguredPrices } from './gateway-prices.ts';
import type { ModelPrice } from './price.ts';

/** The settings-table key of the prices set in svc. */
export const SVC_PRICES_KEY = 'svc:model-prices';

export const SVC_PRICES_MESSAGES = { invalid: 'invalid model prices' } as const;

/** How many models svc holds a price for: enough for any gateway, small enough to read on every lookup. */
const MAX_ENTRIES = 500;

// A price set by hand is checked, not repaired: an unknown field, a negative or a missing amount is a 400.
const Usd = z.number().nonnegative().max(1_000_000);
const PriceInput = z.strictObject({ input: Usd, output: Usd, cacheRead: Usd.optional(), cacheWrite: Usd.optional() });

// A model ref as a gateway spells it: no spaces or control characters, at most 200 characters.
const ModelRef = z.string().trim().toLowerCase().min(1).max(200).regex(/^[^\s/][^\s]*$/, 'a model name, or <provider>/<model>').refine((s) => !s.endsWith('/'), 'a model name after the provider');

// An array of entries, not z.record: a key such as `__proto__` must stay a model name, never an object's prototype.
const EntriesSchema = z
  .array(z.tuple([ModelRef, PriceInput]))
  .max(MAX_ENTRIES, `at most ${MAX_ENTRIES} models`)
  .superRefine((entries, ctx) => {
    const seen = new Set<string>();
    for (const [ref] of entries) {
      if (seen.has(ref)) ctx.addIssue({ code: 'custom', message: `${ref} is given twice (names are compared lowercased)`, path: [ref] });
      seen.add(ref);
    }
  });

export type SvcPriceEntries = ReadonlyArray<readonly [string, ModelPrice]>;

const withoutAbsent = (p: z.infer<typeof PriceInput>): ModelPrice => ({
  input: p.input,
  output: p.output,
  ...(p.cacheRead !== undefined ? { cacheRead: p.cacheRead } : {}),
  ...(p.cacheWrite !== undefined ? { cacheWrite: p.cacheWrite } : {}),
});

/**
 * A PUT body checked: the entries (keys trimmed and lowercased), or the issues to report as `details`, each under
 * the model name it is about (`fieldErrors["openai/gpt-4o"]: ["output: Invalid input: expected number, …"]`).
 */
export function parseSvcPricesBody(body: unknown): { ok: true; entries: SvcPriceEntries } | { ok: false; error: z.ZodError } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, error: new z.ZodError([{ code: 'custom', path: [], message: 'a JSON object of model name → price', input: body }]) };
  }
  const issues: z.core.$ZodIssue[] = [];
  const entries: Array<[string, ModelPrice]> = [];
  for (const [key, value] of Object.entries(body)) {
    const ref = ModelRef.safeParse(key);
    const price = PriceInput.safeParse(value);
    for (const issue of ref.error?.issues ?? []) issues.push({ ...issue, path: [key], message: `name: ${issue.message}` });
    for (const issue of price.error?.issues ?? []) {
      const field = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      issues.push({ ...issue, path: [key], message: `${field}${issue.message}` });
    }
    if (ref.success && price.success) entries.push([ref.data, withoutAbsent(price.data)]);
  }
  const checked = issues.length === 0 ? EntriesSchema.safeParse(entries) : null;
  if (checked && !checked.success) issues.push(...checked.error.issues.map((i) => ({ ...i, path: i.path.filter((p) => typeof p === 'string') })));
  return issues.length > 0 ? { ok: false, error: new z.ZodError(issues) } : { ok: true, entries };
}

/** Stored text → the prices; null when it is not what writeSvcPrices writes. */
export function parseSvcPrices(text: string): ConfiguredPrices | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Only writeSvcPrices writes the key; text that is not JSON (a hand-edited database)
    // reads as no price set in svc, and the gateway's and the library's prices apply.
    return null;
  }
  const parsed = EntriesSchema.safeParse(value);
  return parsed.success ? new Map(parsed.data.map(([ref, price]) => [ref, withoutAbsent(price)])) : null;
}

/** The prices set in svc, as the GET route answers: an object keyed by model ref, in the order they were set. */
export function readSvcPrices(settings: Pick<SettingsTable, 'get'>): Record<string, ModelPrice> {
  const text = settings.get(SVC_PRICES_KEY);
  const prices = text === null ? null : parseSvcPrices(text);
  // An object without a prototype would serialize the same; Object.fromEntries defines `__proto__` as an own key.
  return Object.fromEntries(prices ?? []);
}

/** Replaces every price set in svc (an empty list clears them); a new price applies from the next lookup. */
export function writeSvcPrices(settings: Pick<SettingsTable, 'set'>, entries: SvcPriceEntries): void {
  settings.set(SVC_PRICES_KEY, JSON.stringify(entries));
}
