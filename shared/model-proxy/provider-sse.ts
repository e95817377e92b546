// A provider's stream wire format (OpenAI's and Anthropic's SSE), written by
// svc only where it answers in a provider's place: a refusal (refusal.ts)
// and the close of an answer cut at a cap (stream-cut.ts). svc's own streams
// are framed in supervisor/http/sse.ts; this is the one other writer.

export interface ProviderEvent {
  /** Anthropic and Responses name their events; OpenAI chat chunks are unnamed. */
  event?: string;
  data: unknown;
}

/** The events as SSE lines; `done` ends with OpenAI's `[DONE]` line. */
export const providerSse = (events: readonly ProviderEvent[], done = false): string =>
  events.map((e) => `${e.event ? `event: ${e.event}\n` : ''}data: ${JSON.stringify(e.data)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');
