// What a caller may ask svc's endpoint to forward. A call is reserved at its
// worst case before it goes out, so svc forwards only what it can price:
// a model the agent's provider entry lists (its primary and fallbacks, as
// the routing sync wrote them), and none of the request fields that bill
// outside the answer svc reads (work the provider keeps doing after the
// answer, or tools the provider runs and charges per use). Each refusal is a
// 400 in the caller's API, naming the field (docs/model-routing.md "What
// the endpoint forwards").
import { bareModel } from '../pricing/family.ts';
import type { RoutedApi } from '../model-routing/registry.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);

/** Most answers one chat-completions call may ask for (`n`): each is priced as a whole answer. */
export const MAX_CHOICES = 8;

/** Service tiers billed at the standard price (`flex` is cheaper; `priority` and `scale` cost more). */
const STANDARD_TIERS = new Set(['auto', 'default', 'flex', 'standard_only']);

/** Tool types the caller runs itself (billed as tokens); any other type runs, and bills, at the provider. */
const CLIENT_TOOL = /^(?:function|custom)$|^(?:bash|text_editor|computer|memory)_\d+$/;

/** Longest model name svc forwards (real ids are far shorter); a longer one is refused, not echoed into messages and logs. */
export const MAX_MODEL_NAME = 200;

export const RULES = {
  modelRequired: 'request has no model',
  modelTooLong: `model name over ${MAX_MODEL_NAME} characters`,
  modelNotListed: (model: string, agentId: string, models: readonly string[]) =>
    `model ${model} is not one of agent ${agentId}'s models (${models.join(', ')})`,
  choices: `n over ${MAX_CHOICES} is refused: each answer is priced as a whole call`,
  background: 'background responses are refused: svc cannot meter a response that runs after the call ends',
  storedInput: (field: string) => `${field} is refused: a stored conversation's input cannot be priced before the call`,
  tier: (tier: string) => `service_tier ${tier} is refused: svc prices the standard tier only`,
  serverTool: (type: string) => `tool type ${type} is refused: the provider runs it and bills it per use, outside what svc can price`,
  audio: 'audio output is refused: svc prices text tokens only',
} as const;

/** How many answers a call asks for (chat completions' `n`); 1 otherwise. */
export function choicesOf(api: RoutedApi, body: Obj): number {
  if (api !== 'openai-completions') return 1;
  const n = body.n;
  return typeof n === 'number' && Number.isInteger(n) && n > 1 ? n : 1;
}

function modelListed(model: string, models: readonly string[]): boolean {
  const want = bareModel(model);
  return models.some((m) => m.toLowerCase() === model.toLowerCase() || bareModel(m) === want);
}

function refusedTool(tools: unknown): string | null {
  if (!Array.isArray(tools)) return null;
  for (const t of tools) {
    const type = obj(t)?.type;
    // An untyped tool is a client tool in Anthropic's Messages API.
    if (type === undefined) continue;
    if (typeof type !== 'string' || !CLIENT_TOOL.test(type)) return RULES.serverTool(String(type));
  }
  return null;
}

/**
 * Why svc refuses to forward this request, else null. `models` is the
 * agent's list from the routing registry; an empty list (a registry written
 * before svc kept it) lets any model through until the next routing sync.
 */
export function refusedRequest(api: RoutedApi, agentId: string, body: Obj, models: readonly string[]): string | null {
  const model = body.model;
  if (typeof model !== 'string' || model.trim() === '') return RULES.modelRequired;
  if (model.length > MAX_MODEL_NAME) return RULES.modelTooLong;
  if (models.length > 0 && !modelListed(model, models)) return RULES.modelNotListed(model, agentId, models);
  if (choicesOf(api, body) > MAX_CHOICES) return RULES.choices;
  if (body.background === true) return RULES.background;
  for (const field of ['previous_response_id', 'conversation', 'prompt', 'container']) {
    if (api === 'openai-responses' && body[field] !== undefined && body[field] !== null) return RULES.storedInput(field);
  }
  const tier = body.service_tier;
  if (typeof tier === 'string' && !STANDARD_TIERS.has(tier)) return RULES.tier(tier);
  const tool = refusedTool(body.tools);
  if (tool !== null) return tool;
  if (body.web_search_options !== undefined) return RULES.serverTool('web_search');
  if (Array.isArray(body.modalities) && body.modalities.includes('audio')) return RULES.audio;
  if (body.mcp_servers !== undefined) return RULES.serverTool('mcp');
  return null;
}
