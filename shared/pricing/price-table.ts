// One lookup order for every price svc computes, pure over the operator's
// prices (set in svc: svc-prices.ts; in the gateway's config:
// gateway-prices.ts) and the price library (library.ts). For a model
// `<provider>/<model>` (names compared lowercased), with the model's names
// from the most specific to its family (family.ts: `gpt-4o-2024-08-06`, then
// `gpt-4o`):
//   1. the operator's price, for each name in turn: the price set in svc,
//      then the price the gateway's config gives. In each: `<provider>/<name>`;
//      then a `<name>` key (svc's price at any provider); then, for a model
//      named without its provider (in the gateway's config also: at a
//      provider that configures no price at all), the price of that model id
//      when exactly one provider has one. So an
//      operator's price of the exact snapshot beats one of its family, and
//      an operator's family price beats the library's price of a snapshot;
//   2. the library's list price, for each name in turn, at that provider (a
//      provider the library does not know: by the name alone);
//   3. none: the model is unpriced. isPriced says so (a cap budget refuses
//      it); its calls are recorded at DEFAULT_PRICE, the spec's rate for an
//      unrecognised model. No model is free by its name or its provider's.
// A provider `svc-<agent>` (svc's routing provider for an agent) is first
// replaced by the upstream it stands for, when known: a routed call costs
// what a call to its upstream costs.
import { modelFamilies } from './family.ts';
import type { ConfiguredPrices } from './gateway-prices.ts';
import { libraryPrice } from './library.ts';
import { costAt, DEFAULT_PRICE, type ModelPrice, type PriceSource, type Prices } from './price.ts';

/** The upstream provider id a `svc-<agent>` provider stands for (lowercased input), or null. */
export type UpstreamOf = (provider: string) => string | null;

export interface PricesOptions {
  /** Prices set in svc, keyed `<provider>/<model>` or `<model>`. */
  svcPrices?: ConfiguredPrices;
  /** The moment library prices are taken at (a dated or time-of-day price); defaults to the clock. */
  now?: () => number;
}

const ROUTING_PROVIDER_PREFIX = 'svc-';

interface Found {
  source: PriceSource;
  /** The price for a call of `inputTokens` input tokens (a tiered library price depends on it). */
  at(inputTokens: number): ModelPrice;
}

const flat = (source: PriceSource, price: ModelPrice): Found => ({ source, at: () => price });

/** `name` and its families, keeping the `<vendor>/` part of a model id that has one (`openai/gpt-4o` on OpenRouter). */
function namesOf(id: string): string[] {
  const cut = id.lastIndexOf('/') + 1;
  return modelFamilies(id).map((f) => id.slice(0, cut) + f);
}

/** Operator prices indexed for lookup (names lowercased). */
interface Indexed {
  /** `<provider>/<model>` → price. */
  byRef: Map<string, ModelPrice>;
  /** Providers with at least one price. */
  providers: Set<string>;
  /** Model id → its price when one provider prices it; null when several do. */
  byModelId: Map<string, ModelPrice | null>;
  /** `<model>` keys (svc's price for the model at any provider). */
  anyProvider: Map<string, ModelPrice>;
}

function indexPrices(prices: ConfiguredPrices | undefined): Indexed {
  const ix: Indexed = { byRef: new Map(), providers: new Set(), byModelId: new Map(), anyProvider: new Map() };
  for (const [raw, price] of prices ?? []) {
    const ref = raw.trim().toLowerCase();
    const slash = ref.indexOf('/');
    if (slash < 0) {
      if (ref !== '') ix.anyProvider.set(ref, price);
      continue;
    }
    if (slash === 0) continue;
    const provider = ref.slice(0, slash);
    const id = ref.slice(slash + 1);
    ix.byRef.set(ref, price);
    ix.providers.add(provider);
    const seen = ix.byModelId.get(id);
    ix.byModelId.set(id, seen === undefined ? price : null);
  }
  return ix;
}

/**
 * The operator's price of `<provider>/<name>` in `ix` (bare: the name without any vendor part), or undefined.
 * `borrow`: a provider that has no price in `ix` at all may take the one provider's price of the model id (the
 * gateway config's rule); in svc a `<model>` key says "at any provider" instead.
 */
function operatorPrice(ix: Indexed, provider: string | null, name: string, bare: string, borrow: boolean): ModelPrice | undefined {
  if (provider !== null) {
    const exact = ix.byRef.get(`${provider}/${name}`);
    if (exact) return exact;
  }
  const anyProvider = ix.anyProvider.get(bare);
  if (anyProvider) return anyProvider;
  // A model named without its provider, or at a provider that prices nothing here: the one provider that prices it.
  return provider === null || (borrow && !ix.providers.has(provider)) ? (ix.byModelId.get(name) ?? undefined) : undefined;
}

const FIND_MEMO_LIMIT = 2048;

export function createPrices(configured: ConfiguredPrices, upstreamOf: UpstreamOf = () => null, options: PricesOptions = {}): Prices {
  const svc = indexPrices(options.svcPrices);
  const gateway = indexPrices(configured);
  const now = options.now ?? Date.now;

  // A call prices its model several times (its check, estimate, each metered chunk, settlement): found once per
  // name for this table. Caller input names the model, so the memo is bounded and starts over past its size.
  const memo = new Map<string, Found | null>();
  const find = (model: string | null | undefined): Found | null => {
    if (!model) return null;
    const seen = memo.get(model);
    if (seen !== undefined) return seen;
    const found = search(model);
    if (memo.size >= FIND_MEMO_LIMIT) memo.clear();
    memo.set(model, found);
    return found;
  };
  const search = (model: string): Found | null => {
    const name = model.trim().toLowerCase();
    const slash = name.indexOf('/');
    let provider = slash > 0 ? name.slice(0, slash) : null;
    const id = slash > 0 ? name.slice(slash + 1) : name;
    if (provider !== null && provider.startsWith(ROUTING_PROVIDER_PREFIX)) provider = upstreamOf(provider)?.toLowerCase() ?? provider;
    const names = namesOf(id);
    if (names.length === 0) return null;
    const bare = modelFamilies(id);
    for (let i = 0; i < names.length; i++) {
      const set = operatorPrice(svc, provider, names[i]!, bare[i]!, false);
      if (set) return flat('svc', set);
      const configured = operatorPrice(gateway, provider, names[i]!, bare[i]!, true);
      if (configured) return flat('gateway', configured);
    }
    for (const n of names) {
      if (libraryPrice(provider, n) === null) continue;
      return { source: 'library', at: (inputTokens) => libraryPrice(provider, n, inputTokens, new Date(now())) ?? DEFAULT_PRICE };
    }
    return null;
  };

  return {
    priceOf: (model) => find(model)?.at(0) ?? DEFAULT_PRICE,
    isPriced: (model) => find(model) !== null,
    sourceOf: (model) => find(model)?.source ?? null,
    costOf: (call) => costAt(find(call.model)?.at(call.inputTokens) ?? DEFAULT_PRICE, call),
  };
}

/** Prices with nothing set by the operator: the library, else unpriced. */
export const BUILT_IN_PRICES: Prices = createPrices(new Map());
