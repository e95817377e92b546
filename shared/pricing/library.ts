// The price library: list prices from `@pydantic/genai-prices`, the price
// data it bundles (no network: svc never calls its updatePrices, so it reads
// only the JSON shipped in the package). docs/budgets.md "How a call is
// priced" says why this library and which version.
//
// A lookup names a provider as OpenClaw spells it (`openai`, `xai`,
// `moonshot`; the library maps its own aliases) or none, and a model id as
// the provider spells it (`gpt-4o-2024-08-06`, `openai/gpt-4o` on OpenRouter).
// A model its provider's list does not have (or at a provider the library
// does not know: a custom or local provider id) is looked up by the vendor
// its id names (`openai/gpt-4o` at a proxy is OpenAI's gpt-4o), else by the
// model name alone, as a call named without its provider is: the library
// then picks the provider whose models the name matches, so `mycorp/gpt-4o`
// costs OpenAI's gpt-4o and `fakellm/fake-1` is unknown. The same model at
// its maker's list price is a price; a name nobody lists is not.
//
// What the library prices per call is resolved here to svc's flat ModelPrice
// at one moment and one input size: a price that changed on a date, or that
// differs by time of day (DeepSeek's off-peak hours), is the one in force at
// `at`; a tiered price (Anthropic's and Google's above 200k input tokens) is
// the tier the call's input tokens reach, applied to the whole call, as the
// library and the providers do. Other units it knows (audio, image, web
// searches, 1-hour cache writes) are not what svc counts: such tokens are
// priced as plain input or output.
import { createRequire } from 'node:module';
import type * as GenaiPrices from '@pydantic/genai-prices';
import type { ModelInfo } from '@pydantic/genai-prices';
import type { ModelPrice } from './price.ts';

/** The library and the version whose bundled data prices calls (package.json pins it exactly). */
export const PRICE_LIBRARY = Object.freeze({ name: '@pydantic/genai-prices', version: '0.1.8', publishedOn: '2026-09-23' });

type Library = typeof GenaiPrices;

// Loaded on the first lookup, not at import: the library's data is large
// (half a megabyte of source), and most threads that import shared/pricing
// never price a call. The CommonJS build, so the load is synchronous.
let library: Library | null = null;
const load = (): Library => (library ??= createRequire(import.meta.url)('@pydantic/genai-prices') as Library);

// Caller input names the model, so the memo is bounded: past its size it
// starts over, which costs one library search per name again.
const MEMO_LIMIT = 2048;
const memo = new Map<string, ModelInfo | null>();

/** The library's entry for `model` at `provider` (null: no provider given), or null when it has none. */
function modelInfo(provider: string | null, model: string): ModelInfo | null {
  const key = `${provider ?? ''}\u0000${model}`;
  const seen = memo.get(key);
  if (seen !== undefined) return seen;
  const lib = load();
  const knows = (id: string): boolean => lib.findProvider({ providerId: id }) !== undefined;
  const lookup = (name: string, providerId?: string): ModelInfo | null => lib.calcPrice({}, name, providerId === undefined ? undefined : { providerId })?.model ?? null;
  // A provider that does not list the model is not a reason to price nothing: the model's name may be known, with
  // its vendor when its id names one (`fake/openai/gpt-4o` is OpenAI's gpt-4o), else by the name alone.
  const slash = model.indexOf('/');
  const vendor = slash > 0 ? model.slice(0, slash) : null;
  const name = model.slice(model.lastIndexOf('/') + 1);
  const found =
    (provider !== null && knows(provider) ? lookup(model, provider) : null) ??
    (vendor !== null && knows(vendor) ? lookup(name, vendor) : null) ??
    lookup(name);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, found);
  return found;
}

type LibraryPrices = Exclude<ModelInfo['prices'], unknown[]>;
type LibraryAmount = LibraryPrices[string];

/** The library's prices of `info` in force at `at`: the last of its dated or timed prices whose condition holds, as the library picks. */
function pricesAt(info: ModelInfo, at: Date): LibraryPrices {
  if (!Array.isArray(info.prices)) return info.prices;
  for (let i = info.prices.length - 1; i >= 0; i--) {
    const { constraint, prices } = info.prices[i]!;
    if (constraint === undefined) return prices;
    if (constraint.type === 'start_date' ? at >= new Date(constraint.start_date) : inTimeWindow(at, constraint.start_time, constraint.end_time)) return prices;
  }
  return info.prices[0]!.prices;
}

/** Seconds into the UTC day of a `HH:MM:SS[.fff](Z|±HH:MM)` time, or NaN. */
function utcSecondOfDay(time: string): number {
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|([+-])(\d{2}):(\d{2}))$/.exec(time);
  if (!m) return Number.NaN;
  const local = Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
  const offset = m[4] === undefined ? 0 : (m[4] === '+' ? 1 : -1) * (Number(m[5]) * 3600 + Number(m[6]) * 60);
  return (((local - offset) % 86_400) + 86_400) % 86_400;
}

function inTimeWindow(at: Date, start: string, end: string): boolean {
  const s = utcSecondOfDay(start);
  const e = utcSecondOfDay(end);
  const now = at.getUTCHours() * 3600 + at.getUTCMinutes() * 60 + at.getUTCSeconds();
  // A window past midnight (22:00 to 06:00) wraps.
  return e < s ? now >= s || now < e : now >= s && now < e;
}

/** One amount at `inputTokens`: a flat price, or the highest tier the input passes (the library's rule). */
function amountAt(amount: LibraryAmount, inputTokens: number): number | undefined {
  if (amount === undefined || typeof amount === 'number') return amount;
  let price = amount.base;
  let from = -1;
  for (const tier of amount.tiers) if (inputTokens > tier.start && tier.start > from) [price, from] = [tier.price, tier.start];
  return price;
}

/**
 * The library's price of `model` at `provider` for a call of `inputTokens` at `at`, in svc's shape, or null when
 * the library does not know the model (or knows it without a per-token input and output price).
 */
export function libraryPrice(provider: string | null, model: string, inputTokens = 0, at: Date = new Date()): ModelPrice | null {
  const info = modelInfo(provider, model);
  if (info === null) return null;
  const p = pricesAt(info, at);
  const input = amountAt(p.input_mtok, inputTokens);
  const output = amountAt(p.output_mtok, inputTokens);
  if (input === undefined || output === undefined) return null;
  const cacheRead = amountAt(p.cache_read_mtok, inputTokens);
  const cacheWrite = amountAt(p.cache_write_mtok, inputTokens);
  return { input, output, ...(cacheRead !== undefined ? { cacheRead } : {}), ...(cacheWrite !== undefined ? { cacheWrite } : {}) };
}
