// The price book: the prices in force now, read from svc's settings table on
// whatever connection the caller holds (the supervisor's, a worker's): the
// prices set in svc (SVC_PRICES_KEY), the gateway's configured prices the
// supervisor published (GATEWAY_PRICES_KEY) and the model-routing registry,
// which names the upstream behind each `svc-<agent>` provider. Each lookup
// reads the three settings rows and rebuilds the table only when their text
// changed, so a hot path does not re-parse; a fold over many rows takes
// current() once.
import type { Db } from '../db/open.ts';
import { createSettingsTable, type SettingsTable } from '../db/settings-table.ts';
import { REGISTRY_KEY, RoutingRegistrySchema } from '../model-routing/registry.ts';
import { GATEWAY_PRICES_KEY, parsePrices } from './gateway-prices.ts';
import type { Prices } from './price.ts';
import { createPrices, type UpstreamOf } from './price-table.ts';
import { parseSvcPrices, SVC_PRICES_KEY } from './svc-prices.ts';

export interface PriceBook extends Prices {
  /** The prices as they are now, for many lookups in a row (one read of the settings). */
  current(): Prices;
}

const ROUTING_PROVIDER_PREFIX = 'svc-';

/** `svc-<agent>` → the agent's upstream, from the registry's stored text (none when it does not parse). */
function upstreamsOf(registryText: string | null): UpstreamOf {
  if (registryText === null) return () => null;
  let value: unknown;
  try {
    value = JSON.parse(registryText);
  } catch {
    // The routing service warns about an unreadable registry (registry.ts) and routes
    // nothing then; a `svc-` provider is priced by its model id alone meanwhile.
    return () => null;
  }
  const parsed = RoutingRegistrySchema.safeParse(value);
  if (!parsed.success) return () => null;
  const byAgent = new Map(Object.entries(parsed.data.agents).map(([agentId, a]) => [agentId.toLowerCase(), a.upstream]));
  return (provider) => byAgent.get(provider.toLowerCase().slice(ROUTING_PROVIDER_PREFIX.length)) ?? null;
}

export function createPriceBook(settings: Pick<SettingsTable, 'get'>): PriceBook {
  let pricesText: string | null | undefined;
  let registryText: string | null | undefined;
  let svcText: string | null | undefined;
  let prices: Prices = createPrices(new Map());
  const current = (): Prices => {
    const p = settings.get(GATEWAY_PRICES_KEY);
    const r = settings.get(REGISTRY_KEY);
    const s = settings.get(SVC_PRICES_KEY);
    if (p === pricesText && r === registryText && s === svcText) return prices;
    pricesText = p;
    registryText = r;
    svcText = s;
    const svcPrices = (s === null ? null : parseSvcPrices(s)) ?? new Map();
    prices = createPrices((p === null ? null : parsePrices(p)) ?? new Map(), upstreamsOf(r), { svcPrices });
    return prices;
  };
  return {
    current,
    priceOf: (model) => current().priceOf(model),
    isPriced: (model) => current().isPriced(model),
    sourceOf: (model) => current().sourceOf(model),
    costOf: (call) => current().costOf(call),
  };
}

const books = new WeakMap<Db, PriceBook>();

/** The price book over `db`'s settings table, one per connection. */
export function priceBookFor(db: Db): PriceBook {
  let book = books.get(db);
  if (!book) {
    book = createPriceBook(lazySettings(db));
    books.set(db, book);
  }
  return book;
}

/** The settings table, prepared on first use: a book made for a store that never prices prepares nothing. */
function lazySettings(db: Db): Pick<SettingsTable, 'get'> {
  let table: SettingsTable | null = null;
  return { get: (key) => (table ??= createSettingsTable(db)).get(key) };
}
