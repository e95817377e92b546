// The built-in price table: published list prices (USD per million tokens)
// of common models, the fallback for a model the gateway's config gives no
// price (price-table.ts has the order; a later issue replaces this table with
// a maintained price library). No entry is a test's or a fixture's model: a
// test model costs what its test configures, like any model.
//
// Lookup: the model as given, then without a `<provider>/` prefix, then the
// longest table key the name starts with (dated snapshots such as
// `claude-sonnet-4-5-20250929` take the family's price), all lowercased.
// Models of the local Ollama provider (`ollama/…`) run on the operator's
// machine and cost nothing.
import type { ModelPrice } from './price.ts';

/** Published list prices (USD per million tokens) of common models. */
const PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  'claude-opus-4': { input: 15, output: 75 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-opus-4-5': { input: 5, output: 25 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-sonnet-4-5': { input: 3, output: 15 },
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  o3: { input: 2, output: 8 },
  'o4-mini': { input: 1.1, output: 4.4 },
  'gemini-2.5-pro': { input: 1.25, output: 10 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5 },
  'deepseek-chat': { input: 0.27, output: 1.1 },
  'deepseek-reasoner': { input: 0.55, output: 2.19 },
  'grok-4': { input: 3, output: 15 },
  'mistral-large-latest': { input: 2, output: 6 },
});

const LOCAL: Readonly<ModelPrice> = Object.freeze({ input: 0, output: 0 });

// A Map, not the object: a model name is caller input, and `__proto__` or
// `constructor` must not resolve to Object.prototype's members.
const TABLE: ReadonlyMap<string, ModelPrice> = new Map(Object.entries(PRICES));
const KEYS_LONGEST_FIRST = [...TABLE.keys()].sort((a, b) => b.length - a.length);

/** The table's price of `model` (trimmed, lowercased), or null when the table does not know it. */
export function builtInPrice(model: string): ModelPrice | null {
  const name = model.trim().toLowerCase();
  const bare = name.includes('/') ? name.slice(name.lastIndexOf('/') + 1) : name;
  if (name.startsWith('ollama/')) return LOCAL;
  const exact = TABLE.get(name) ?? TABLE.get(bare);
  if (exact) return exact;
  const prefix = KEYS_LONGEST_FIRST.find((k) => bare.startsWith(`${k}-`) || bare.startsWith(`${k}@`));
  return (prefix && TABLE.get(prefix)) || null;
}
