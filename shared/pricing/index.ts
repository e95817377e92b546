// shared/pricing: one pricing truth for every call svc prices (cost records,
// `cost` events, trace metrics, OTLP spans, the model endpoint's estimates
// and settlements, budget metering). What the operator configured in the
// gateway comes first, then the built-in table, then the default
// (price-table.ts has the order; docs/budgets.md "How a call is priced").
import { BUILT_IN_PRICES } from './price-table.ts';
import type { ModelPrice } from './price.ts';

export { builtInPrice } from './builtin.ts';
export { GATEWAY_PRICES_KEY, parsePrices, pricesFromGatewayConfig, serializePrices, type ConfiguredPrices } from './gateway-prices.ts';
export { costAt, DEFAULT_PRICE, ModelPriceSchema, type CallTokens, type ModelPrice, type Prices } from './price.ts';
export { createPriceBook, priceBookFor, type PriceBook } from './price-book.ts';
export { BUILT_IN_PRICES, createPrices, type UpstreamOf } from './price-table.ts';

/** The price of `model` with nothing configured (the built-in table, else the default). */
export function priceOf(model: string | null | undefined): ModelPrice {
  return BUILT_IN_PRICES.priceOf(model);
}

/** USD for a run's tokens with nothing configured; negative or non-finite counts count as 0. Callers with a price book use its costOf. */
export function costUsd(model: string | null | undefined, inputTokens: number, outputTokens: number): number {
  return BUILT_IN_PRICES.costOf({ model, inputTokens, outputTokens });
}
