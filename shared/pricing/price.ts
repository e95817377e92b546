// A model's price and what a call costs at it. Prices are USD per million
// tokens, as OpenClaw's `models.providers.<p>.models[].cost` spells them.
//
// A call's `inputTokens` are all its input tokens, cache reads and writes
// included (what svc's model endpoint counts, shared/model-proxy/usage.ts).
// Cache reads are priced at `cacheRead` and cache writes at `cacheWrite`
// where the price has them; without, they are input tokens like the rest.
import { z } from 'zod';

// z.number() refuses NaN and ±Infinity: only finite amounts pass.
const Usd = z.number().nonnegative();

export const ModelPriceSchema = z.object({
  /** USD per million input tokens. */
  input: Usd,
  /** USD per million output tokens. */
  output: Usd,
  /** USD per million cache-read input tokens; absent: the input price. */
  cacheRead: Usd.optional().catch(undefined),
  /** USD per million cache-write input tokens; absent: the input price. */
  cacheWrite: Usd.optional().catch(undefined),
});
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/**
 * The spec's rate for a model nothing prices ("Cost records": 3 per million input tokens, 15 per million output
 * tokens for an unrecognised model): what such a call is recorded at. It is not a price: such a model is unpriced
 * (Prices.isPriced is false) and a cap budget refuses it.
 */
export const DEFAULT_PRICE: Readonly<ModelPrice> = Object.freeze({ input: 3, output: 15 });

/** One call's tokens, and the model to price them by (`<provider>/<model>` where known). */
export interface CallTokens {
  model: string | null | undefined;
  /** Every input token, cache reads and writes included. */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number | undefined;
  cacheWriteTokens?: number | undefined;
}

/** Where a model's price came from (price-table.ts has the order). */
export type PriceSource = 'svc' | 'gateway' | 'library';

/** Lookups of a model's price and a call's cost (price-table.ts says in which order). */
export interface Prices {
  /** The model's price for a call of few input tokens (a tiered library price: its base tier); DEFAULT_PRICE when unpriced. */
  priceOf(model: string | null | undefined): ModelPrice;
  /** Whether anything prices `model` (the operator or the library); false for null, empty and unknown models. */
  isPriced(model: string | null | undefined): boolean;
  /** Where `model`'s price comes from; null when it is unpriced. */
  sourceOf(model: string | null | undefined): PriceSource | null;
  /** USD; negative or non-finite counts count as 0. An unpriced model's call at DEFAULT_PRICE. */
  costOf(call: CallTokens): number;
}

const count = (x: number | undefined): number => (x !== undefined && Number.isFinite(x) && x > 0 ? x : 0);

/** USD for `call` at price `p`. */
export function costAt(p: ModelPrice, call: CallTokens): number {
  const cacheRead = count(call.cacheReadTokens);
  const cacheWrite = count(call.cacheWriteTokens);
  const plain = Math.max(0, count(call.inputTokens) - cacheRead - cacheWrite);
  // One division of the summed products: integer prices then give the exact decimal (98,533 × 3 + 119 × 15 → 0.297384).
  const micro = plain * p.input + cacheRead * (p.cacheRead ?? p.input) + cacheWrite * (p.cacheWrite ?? p.input) + count(call.outputTokens) * p.output;
  return micro / 1_000_000;
}
