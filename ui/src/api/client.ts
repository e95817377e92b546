// Every /api call from the dashboard goes through here, and only the
// resource modules beside it (ui/src/api/<resource>.ts) import it: pages and
// components call their hooks (eslint.config.js enforces it). Answers are
// JSON or an error (ApiError, errors.ts): an HTML answer on /api (a proxy's
// page, a misrouted catch-all) is never rendered, and the access gate's JSON
// refusal flips the app to the access page (access-gate.ts). Error bodies
// are the spec's envelopes: `{ error }`, `{ ok: false, error }` or
// `{ ok: false, reason }`.
import { gateStore, isGateRefusal } from './access-gate.ts';
import { ApiError } from './errors.ts';

/** The message of an error envelope, else a generic one naming the status. */
export function errorMessage(status: number, body: unknown): string {
  if (typeof body === 'object' && body !== null) {
    const b = body as { error?: unknown; reason?: unknown };
    if (typeof b.error === 'string' && b.error) return b.error;
    if (typeof b.reason === 'string' && b.reason) return b.reason;
  }
  return `request failed (${status})`;
}

/** Reads a fetch Response as JSON; refuses HTML and other types. Exported for the POST-stream reader's error path. */
export async function readJson(res: Response): Promise<unknown> {
  const type = res.headers.get('content-type') ?? '';
  if (res.status === 204 || res.status === 304) return undefined;
  if (!type.includes('application/json')) {
    await res.body?.cancel();
    throw new ApiError(res.status, `expected JSON from the server, got ${type.split(';')[0] || 'no content type'} (${res.status})`);
  }
  return res.json();
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

/** Calls an /api route and returns its JSON; throws ApiError on a non-2xx answer. */
export async function api<T = unknown>(path: string, opts: ApiOptions = {}): Promise<T> {
  const init: RequestInit = {
    method: opts.method ?? 'GET',
    headers: { accept: 'application/json', ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    credentials: 'same-origin',
    signal: opts.signal,
  };
  if (opts.body !== undefined) init.body = JSON.stringify(opts.body);
  const res = await fetch(path, init);
  const body = await readJson(res);
  if (isGateRefusal(res.status, body)) gateStore.set({ locked: true });
  if (!res.ok) throw new ApiError(res.status, errorMessage(res.status, body), body);
  return body as T;
}
