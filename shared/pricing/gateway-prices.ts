// The prices the operator gave the gateway's models: OpenClaw's config has
// `models.providers.<providerId>.models[] = { id, cost: { input, output,
// cacheRead, cacheWrite } }` in USD per million tokens. Pure: the supervisor
// publishes what this extracts into svc's settings table (GATEWAY_PRICES_KEY)
// and every thread's price book reads it from there (price-book.ts).
//
// A model entry without a `cost` object is not configured (the price
// library prices it, or nothing does); a cost of all zeros is configured at
// zero: the operator said so. Providers named `svc-…` are svc's own
// per-agent routing providers, copies of an upstream's entries: a routed
// call is priced by `<upstream>/<model>`, so they are skipped here.
import { z } from 'zod';
import { ModelPriceSchema, type ModelPrice } from './price.ts';

/** The settings-table key the supervisor publishes the gateway's prices under. */
export const GATEWAY_PRICES_KEY = 'gateway:model-prices';

/** Prices keyed by `<providerId>/<modelId>` as the config spells them. */
export type ConfiguredPrices = ReadonlyMap<string, ModelPrice>;

const ROUTING_PROVIDER_PREFIX = 'svc-';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
// Own keys only: a config key such as `__proto__` is data, never Object.prototype.
const own = (v: unknown, key: string): unknown => (isObj(v) && Object.hasOwn(v, key) ? v[key] : undefined);

export function pricesFromGatewayConfig(config: unknown): Map<string, ModelPrice> {
  const out = new Map<string, ModelPrice>();
  const providers = own(own(config, 'models'), 'providers');
  if (!isObj(providers)) return out;
  for (const [providerId, provider] of Object.entries(providers)) {
    // A provider id with a slash could not be told apart from its model id in `<provider>/<model>`.
    if (providerId === '' || providerId.includes('/') || providerId.toLowerCase().startsWith(ROUTING_PROVIDER_PREFIX)) continue;
    const models = own(provider, 'models');
    if (!Array.isArray(models)) continue;
    for (const model of models) {
      const id = own(model, 'id');
      const cost = own(model, 'cost');
      if (typeof id !== 'string' || id.trim() === '' || !isObj(cost)) continue;
      const price = ModelPriceSchema.safeParse(cost);
      if (!price.success) continue;
      out.set(`${providerId}/${id}`, withoutAbsent(price.data));
    }
  }
  return out;
}

/** The price with its absent cache prices left out (not `undefined`): what is stored reads as it was written. */
function withoutAbsent(p: ModelPrice): ModelPrice {
  return {
    input: p.input,
    output: p.output,
    ...(p.cacheRead !== undefined ? { cacheRead: p.cacheRead } : {}),
    ...(p.cacheWrite !== undefined ? { cacheWrite: p.cacheWrite } : {}),
  };
}

// Stored as `[ref, price]` pairs, not an object: a ref is never an object key, so no key can be special.
const StoredPricesSchema = z.array(z.tuple([z.string().min(1), ModelPriceSchema]));

export function serializePrices(prices: ConfiguredPrices): string {
  return JSON.stringify([...prices]);
}

/** The stored text read back; null when it is not what serializePrices writes. */
export function parsePrices(text: string): ConfiguredPrices | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Only serializePrices writes the key; a value that is not JSON (a hand-edited
    // database) reads as no configured prices, which is how svc priced before any config was read.
    return null;
  }
  const parsed = StoredPricesSchema.safeParse(value);
  return parsed.success ? new Map(parsed.data.map(([ref, price]) => [ref, withoutAbsent(price)])) : null;
}
