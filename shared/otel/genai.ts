// The OpenTelemetry names svc's spans use, pinned to one version of the
// conventions: semantic-conventions v1.37.0 (the GenAI conventions as of that
// release, where `gen_ai.provider.name` replaced `gen_ai.system`). Named here
// once rather than imported: @opentelemetry/semantic-conventions is not one
// of svc's dependencies, and its GenAI names live in the `incubating` entry
// point, which may rename them in any minor release; a pin by hand changes
// only when this file does. The tracer states the version as its scope's
// schema URL, so a collector knows which names to expect.
import type { ModelCallOutcome as StoredOutcome } from '../model-calls/store.ts';

export const SEMCONV_VERSION = '1.37.0';
export const SEMCONV_SCHEMA_URL = `https://opentelemetry.io/schemas/${SEMCONV_VERSION}`;

export const ATTR = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  responseModel: 'gen_ai.response.model',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  agentId: 'gen_ai.agent.id',
  agentName: 'gen_ai.agent.name',
  toolName: 'gen_ai.tool.name',
  conversationId: 'gen_ai.conversation.id',
  errorType: 'error.type',
} as const;

/** gen_ai.operation.name values of a model (inference) call: its span is a CLIENT span. */
export const INFERENCE_OPERATIONS = ['chat', 'text_completion', 'generate_content', 'embeddings'] as const;
export type InferenceOperation = (typeof INFERENCE_OPERATIONS)[number];
export const isInference = (op: string | undefined): boolean => op !== undefined && (INFERENCE_OPERATIONS as readonly string[]).includes(op);

// The convention's well-known provider names, by the provider ids the
// gateway's config uses for them. Any other upstream keeps its own id: the
// conventions ask for a custom value when none of theirs applies (an
// OpenAI-compatible API at another host is not `openai`).
const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  openai: 'openai',
  anthropic: 'anthropic',
  google: 'gcp.gemini',
  gemini: 'gcp.gemini',
  'google-vertex': 'gcp.vertex_ai',
  vertex: 'gcp.vertex_ai',
  'amazon-bedrock': 'aws.bedrock',
  bedrock: 'aws.bedrock',
  'azure-openai': 'azure.ai.openai',
  mistral: 'mistral_ai',
  xai: 'x_ai',
  groq: 'groq',
  deepseek: 'deepseek',
  perplexity: 'perplexity',
  cohere: 'cohere',
};

/** gen_ai.provider.name of an upstream by its registry id. */
export const providerName = (upstreamId: string): string => PROVIDER_NAMES[upstreamId.toLowerCase()] ?? upstreamId;

/** The model as the provider knows it: svc's `<upstream>/<model>` without the upstream. */
export function requestModelOf(model: string, upstreamId: string | undefined): string {
  if (upstreamId === undefined) return model;
  const prefix = `${upstreamId}/`;
  return model.startsWith(prefix) && model.length > prefix.length ? model.slice(prefix.length) : model;
}

/**
 * How a model call through svc's endpoint ended: model_calls' outcomes, with
 * `unreachable` told apart, and `rejected` for a request svc answers 400
 * before any budget is asked (a model not listed, a parameter it cannot price).
 */
export type ModelCallOutcome = Exclude<StoredOutcome, 'open'> | 'rejected' | 'unreachable';

/**
 * error.type of a model call that did not end `ok`: the provider's HTTP
 * status for its error (low cardinality, as the conventions ask), else the
 * outcome. The list is in docs/observability.md.
 */
export function modelCallErrorType(outcome: ModelCallOutcome, httpStatus: number | null | undefined): string | null {
  if (outcome === 'ok') return null;
  if (outcome === 'refused') return 'budget_refused';
  if (outcome === 'capped') return 'budget_capped';
  if (outcome === 'ended') return 'runaway_ended';
  if (outcome === 'rejected') return 'request_rejected';
  if (outcome === 'upstream_error' && typeof httpStatus === 'number' && httpStatus >= 400) return String(httpStatus);
  return outcome;
}

/** The span status message of a failed model call: fixed text, never the provider's body. */
export const MODEL_CALL_ERROR_TEXT: Readonly<Record<Exclude<ModelCallOutcome, 'ok'>, string>> = {
  refused: 'refused by svc at a budget cap; not sent to the provider',
  rejected: 'refused by svc as a request it cannot price or allow; not sent to the provider',
  upstream_error: 'the provider answered with an error',
  unreachable: 'the provider was unreachable',
  aborted: 'the caller went away before the answer ended',
  cut: "the provider's answer ended early",
  capped: 'ended by svc mid-answer: a budget cap was reached',
  ended: 'ended by svc before the provider: the turn hit a runaway limit',
  interrupted: 'svc stopped while the call was in flight; charged at its estimate at the next start',
};
