// Which provider API a request to svc's model endpoint speaks, judged by the
// path tail after `/model/<agentId>/` (after `via/<upstream>/` on a
// fallback's path), and how the real provider expects the
// same call: its URL and its auth header. The caller's own credentials are
// never forwarded (they are svc's token); headers that shape the call are.
import type { ResolvedUpstream, RoutedApi } from '../model-routing/registry.ts';

const TAILS: ReadonlyMap<string, RoutedApi> = new Map([
  ['v1/chat/completions', 'openai-completions'],
  ['chat/completions', 'openai-completions'],
  ['v1/messages', 'anthropic-messages'],
  ['messages', 'anthropic-messages'],
  ['v1/responses', 'openai-responses'],
  ['responses', 'openai-responses'],
]);

/**
 * The upstream a fallback's path names and the API tail after it:
 * `via/<upstream>/v1/messages` is the agent's fallbacks on `<upstream>`
 * (its `svc-<agent>~<upstream>` entry points there); any other tail is the
 * agent's own path (its primary's upstream), `via: null`.
 */
export function splitViaTail(tail: string): { via: string | null; tail: string } {
  const m = /^\/*via\/([^/?]+)\/(.*)$/s.exec(tail);
  return m ? { via: m[1] as string, tail: m[2] as string } : { via: null, tail };
}

/** The API a path tail names (query string ignored), else null. */
export function apiOfTail(tail: string): RoutedApi | null {
  const path = tail.split('?')[0] ?? '';
  return TAILS.get(path.replace(/^\/+|\/+$/g, '')) ?? null;
}

const trimSlash = (s: string) => s.replace(/\/+$/, '');

/** The real provider's URL for a call of `api`, from the upstream's base URL as the gateway spelled it. */
export function upstreamUrl(upstream: Pick<ResolvedUpstream, 'baseUrl'>, api: RoutedApi): string {
  const base = trimSlash(upstream.baseUrl);
  if (api === 'openai-completions') return `${base}/chat/completions`;
  if (api === 'openai-responses') return `${base}/responses`;
  return base.endsWith('/v1') ? `${base}/messages` : `${base}/v1/messages`;
}

// Headers that describe the call rather than the caller's identity. Anything
// else (authorization, x-api-key, cookies, hop-by-hop headers) stays here.
const PASS = new Set(['content-type', 'accept', 'user-agent', 'traceparent', 'tracestate']);
const PASS_PREFIXES = ['x-stainless-', 'openai-', 'anthropic-'];

/** The headers sent upstream: the caller's safe ones, the upstream's static ones, then the real key. */
export function upstreamHeaders(
  incoming: Record<string, string | string[] | undefined>,
  upstream: Pick<ResolvedUpstream, 'api' | 'apiKey' | 'headers'>,
  bodyBytes: number,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (typeof value !== 'string') continue;
    const n = name.toLowerCase();
    if (PASS.has(n) || PASS_PREFIXES.some((p) => n.startsWith(p))) out[n] = value;
  }
  for (const [name, value] of Object.entries(upstream.headers)) out[name.toLowerCase()] = value;
  out['content-type'] = 'application/json';
  out['content-length'] = String(bodyBytes);
  if (upstream.apiKey !== null) {
    if (upstream.api === 'anthropic-messages') out['x-api-key'] = upstream.apiKey;
    else out.authorization = `Bearer ${upstream.apiKey}`;
  }
  if (upstream.api === 'anthropic-messages' && out['anthropic-version'] === undefined) out['anthropic-version'] = '2023-06-01';
  return out;
}

/** The trace id of a W3C `traceparent` header (the gateway sends one per run), else null. */
export function traceIdOf(traceparent: string | string[] | undefined): string | null {
  if (typeof traceparent !== 'string') return null;
  const m = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/i.exec(traceparent.trim());
  return m ? (m[1] as string).toLowerCase() : null;
}

/**
 * The body sent upstream: as received, except an OpenAI completions stream
 * that did not ask for usage, which then asks for it (the provider sends its
 * usage only then; the extra usage chunk is harmless to the caller).
 */
export function withUsageRequested(api: RoutedApi, raw: Buffer, body: Record<string, unknown>): Buffer {
  if (api !== 'openai-completions' || body.stream !== true) return raw;
  const opts = body.stream_options !== null && typeof body.stream_options === 'object' ? (body.stream_options as Record<string, unknown>) : {};
  if (opts.include_usage === true) return raw;
  return Buffer.from(JSON.stringify({ ...body, stream_options: { ...opts, include_usage: true } }));
}
