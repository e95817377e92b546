// One lookup order for every price svc computes, pure over the configured
// prices (gateway-prices.ts) and the built-in table (builtin.ts). For a model
// `<provider>/<model>` (all compared lowercased):
//   1. the price the gateway's config gives `<provider>/<model>`;
//   2. for a model named without its provider, or a provider that configures
//      no price at all: the configured price of that model id, when exactly
//      one provider configures it;
//   3. the built-in table;
//   4. the default, 3 (input) and 15 (output) per million.
// A provider `svc-<agent>` (svc's routing provider for an agent) is first
// replaced by the upstream it stands for, when known: a routed call costs
// what a call to its upstream costs.
import { builtInPrice } from './builtin.ts';
import type { ConfiguredPrices } from './gateway-prices.ts';
import { costAt, DEFAULT_PRICE, type ModelPrice, type Prices } from './price.ts';

/** The upstream provider id a `svc-<agent>` provider stands for (lowercased input), or null. */
export type UpstreamOf = (provider: string) => string | null;

const ROUTING_PROVIDER_PREFIX = 'svc-';

export function createPrices(configured: ConfiguredPrices, upstreamOf: UpstreamOf = () => null): Prices {
  const byRef = new Map<string, ModelPrice>();
  const providers = new Set<string>();
  /** Model id → its price when one provider configures it; null when several do. */
  const byModelId = new Map<string, ModelPrice | null>();
  for (const [ref, price] of configured) {
    const key = ref.trim().toLowerCase();
    const slash = key.indexOf('/');
    if (slash <= 0) continue;
    const provider = key.slice(0, slash);
    const id = key.slice(slash + 1);
    byRef.set(key, price);
    providers.add(provider);
    const seen = byModelId.get(id);
    byModelId.set(id, seen === undefined ? price : null);
  }

  const priceOf = (model: string | null | undefined): ModelPrice => {
    if (!model) return DEFAULT_PRICE;
    const name = model.trim().toLowerCase();
    const slash = name.indexOf('/');
    let provider = slash > 0 ? name.slice(0, slash) : null;
    const id = slash > 0 ? name.slice(slash + 1) : name;
    if (provider !== null && provider.startsWith(ROUTING_PROVIDER_PREFIX)) provider = upstreamOf(provider)?.toLowerCase() ?? provider;
    if (provider !== null) {
      const configured = byRef.get(`${provider}/${id}`);
      if (configured) return configured;
    }
    if (provider === null || !providers.has(provider)) {
      const only = byModelId.get(id);
      if (only) return only;
    }
    return builtInPrice(provider === null ? id : `${provider}/${id}`) ?? DEFAULT_PRICE;
  };

  return { priceOf, costOf: (call) => costAt(priceOf(call.model), call) };
}

/** Prices with nothing configured: the built-in table, then the default. */
export const BUILT_IN_PRICES: Prices = createPrices(new Map());
