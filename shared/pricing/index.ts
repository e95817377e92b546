// shared/pricing: one pricing truth for every call svc prices (cost records,
// `cost` events, trace metrics, OTLP spans, the model endpoint's estimates
// and settlements, budget metering). The operator's prices come first (set
// in svc, then in the gateway's config), then the price library, then none:
// an unpriced model (price-table.ts has the order; docs/budgets.md "How a
// call is priced").
import { BUILT_IN_PRICES } from './price-table.ts';
import type { ModelPrice } from './price.ts';

export { bareModel, inModelFamily, modelFamilies } from './family.ts';
export { GATEWAY_PRICES_KEY, parsePrices, pricesFromGatewayConfig, serializePrices, type ConfiguredPrices } from './gateway-prices.ts';
export { libraryPrice, PRICE_LIBRARY } from './library.ts';
export { costAt, DEFAULT_PRICE, ModelPriceSchema, type CallTokens, type ModelPrice, type PriceSource, type Prices } from './price.ts';
export { createPriceBook, priceBookFor, type PriceBook } from './price-book.ts';
export { BUILT_IN_PRICES, createPrices, type PricesOptions, type UpstreamOf } from './price-table.ts';
export {
  parseSvcPrices, parseSvcPricesBody, readSvcPrices, SVC_PRICES_KEY, SVC_PRICES_MESSAGES, writeSvcPrices, type SvcPriceEntries,
} from './svc-prices.ts';

/** The price of `model` with nothing set by the operator (the library; DEFAULT_PRICE when unpriced). */
export function priceOf(model: string | null | undefined): ModelPrice {
  return BUILT_IN_PRICES.priceOf(model);
}

/** USD for a run's tokens with nothing set by the operator; negative or non-finite counts count as 0. Callers with a price book use its costOf. */
export function costUsd(model: string | null | undefined, inputTokens: number, outputTokens: number): number {
  return BUILT_IN_PRICES.costOf({ model, inputTokens, outputTokens });
}
