// What a model call may cost, reserved under its budgets before it is
// forwarded. The worst case is what matters: a cap must not let spend
// through, so the estimate errs high. Input tokens: the request body's bytes
// / 3 (JSON, tool schemas and system text count; real tokenizers average
// about 4 characters a token for English, so this over-counts). Output: the
// request's own maximum (max_completion_tokens, max_tokens or
// max_output_tokens), else DEFAULT_MAX_OUTPUT_TOKENS. Priced by the price
// book the settlement prices by (shared/pricing), every input token at the
// model's input price. A call asking for `n` answers (chat completions)
// reserves n times the output. A call can still cost more than
// its estimate when the body is mostly non-ASCII text (more tokens than
// bytes / 3) or when no maximum was sent and the model writes longer than
// the default: the settlement then counts the actual cost, and the overshoot
// of a cap is at most that one call's actual-minus-estimate.
import type { Prices } from '../pricing/index.ts';

export const BYTES_PER_INPUT_TOKEN = 3;
export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

export interface Estimate {
  inputTokens: number;
  outputTokens: number;
  usd: number;
}

const positiveInt = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.ceil(v) : null);

/** The request's maximum output tokens, whichever spelling its API uses. */
export function maxOutputTokensOf(body: Record<string, unknown>): number | null {
  return positiveInt(body.max_completion_tokens) ?? positiveInt(body.max_tokens) ?? positiveInt(body.max_output_tokens);
}

/** `model` as it is priced: `<upstream>/<model>`; `maxOutput` and `choices` as the request asked (request-facts.ts). */
export function estimateCall(prices: Prices, model: string | null, bodyBytes: number, maxOutput: number | null, choices = 1): Estimate {
  const inputTokens = Math.ceil(bodyBytes / BYTES_PER_INPUT_TOKEN);
  const outputTokens = (maxOutput ?? DEFAULT_MAX_OUTPUT_TOKENS) * choices;
  return { inputTokens, outputTokens, usd: prices.costOf({ model, inputTokens, outputTokens }) };
}

/** Tokens of streamed text when the provider's usage never came (a cut or aborted stream): chars / 4. */
export const tokensOfChars = (chars: number): number => Math.ceil(chars / 4);
