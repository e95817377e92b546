// The body of an error svc's model endpoint answers itself (a bad token, an
// unknown path, a body over the limit, a provider that is down, a request it
// refuses to forward), in the envelope of the API the caller speaks, so the
// official clients read it as they read the provider's own errors:
//
//   Anthropic  { type: 'error', error: { type, message } }
//              types by status as Anthropic documents them (400
//              invalid_request_error, 401 authentication_error, 402
//              billing_error, 403 permission_error, 404 not_found_error, 413
//              request_too_large, 429 rate_limit_error, 504 timeout_error, 529
//              overloaded_error, other 5xx api_error).
//   OpenAI     { error: { message, type, param: null, code: null } }
//              (chat completions, Responses, and any path svc cannot place):
//              a 4xx is an invalid_request_error (a 401 with code
//              invalid_api_key, as OpenAI sends it), a 429 rate_limit_exceeded,
//              a 5xx a server_error.
//
// The SDKs choose their typed error by status alone; the envelope is what
// puts svc's message in that error's `message`.
import type { RoutedApi } from '../model-routing/registry.ts';

export interface ErrorAnswer {
  contentType: string;
  body: string;
}

const ANTHROPIC_TYPE: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

function anthropicType(status: number): string {
  return ANTHROPIC_TYPE[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

function openaiType(status: number): { type: string; code: string | null } {
  if (status >= 500) return { type: 'server_error', code: null };
  if (status === 429) return { type: 'rate_limit_exceeded', code: 'rate_limit_exceeded' };
  if (status === 401) return { type: 'invalid_request_error', code: 'invalid_api_key' };
  return { type: 'invalid_request_error', code: null };
}

/**
 * svc's own error as `api`'s provider would send it (null: OpenAI's envelope).
 * `extra` joins the inner `error` object (e.g. `details`, or `code`/`param`
 * for OpenAI); it never replaces `message` or `type`.
 */
export function errorAnswer(api: RoutedApi | null, status: number, message: string, extra: Record<string, unknown> = {}): ErrorAnswer {
  if (api === 'anthropic-messages') {
    const error = { ...extra, type: anthropicType(status), message };
    return { contentType: 'application/json', body: JSON.stringify({ type: 'error', error }) };
  }
  const { type, code } = openaiType(status);
  const error = { param: null, code, ...extra, message, type };
  return { contentType: 'application/json', body: JSON.stringify({ error }) };
}
