// The remote source: an index fetched over http(s) (`SVC_CATALOG_INDEX_URL`),
// its bundles at URLs relative to it or absolute. A remote index can name
// only http(s) bundles, never a local file. Credentials written into the URL
// become a Basic header (fetch refuses URLs that carry them), sent only to
// the index's own origin, and never appear in a location svc reports.
// Bundles come from the index's own origin only (a bundle elsewhere refuses
// its pack), at most 4 at a time; no redirect is followed (read-capped.ts).
import { isSensitiveKey } from '../redact.ts';
import type { SourceReader } from './load-source.ts';
import { fetchCapped, type FetchLike } from './read-capped.ts';
import { CATALOG_LIMITS } from './schemas.ts';

/** The URL as svc may show it: no user or password, credential-like query values replaced. */
export function displayUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (err) {
    // Not a URL at all: show nothing of it, since it could be a secret pasted in the wrong place.
    return `(unparseable URL: ${(err as Error).name})`;
  }
  url.username = '';
  url.password = '';
  for (const key of [...url.searchParams.keys()]) if (isSensitiveKey(key)) url.searchParams.set(key, 'redacted');
  return url.toString();
}

/** Bundle fetches of one remote source in flight at once. */
export const REMOTE_BUNDLE_CONCURRENCY = 4;

/** Runs at most `n` of the functions given to it at once, the rest in order as they finish. */
function limiter(n: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (fn) => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await fn();
    } finally {
      // The slot passes straight to the next waiter, so `active` never dips and overshoots.
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

function httpUrl(raw: string, base?: URL): URL {
  const url = new URL(raw, base);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`only http(s) URLs are allowed here, not ${url.protocol}`);
  return url;
}

/** Splits userinfo off a URL into an Authorization header. */
function withoutCredentials(url: URL): { href: string; authorization: string | null } {
  if (url.username === '' && url.password === '') return { href: url.href, authorization: null };
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  return { href: bare.href, authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` };
}

export function remoteSource(indexUrl: string, opts: { fetch?: FetchLike; timeoutMs?: number } = {}): SourceReader {
  const baseFetch: FetchLike = opts.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = opts.timeoutMs ?? CATALOG_LIMITS.fetchTimeoutMs;
  const get = async (url: URL, limit: number, what: string, origin: string) => {
    const { href, authorization } = withoutCredentials(url);
    const sendAuth = authorization !== null && url.origin === origin;
    const f: FetchLike = (input, init) =>
      baseFetch(input, sendAuth ? { ...init, headers: { ...(init?.headers as Record<string, string>), authorization } } : init);
    return fetchCapped(href, { limit, timeoutMs, what, fetch: f });
  };
  const bundleSlot = limiter(REMOTE_BUNDLE_CONCURRENCY);
  return {
    kind: 'remote',
    location: displayUrl(indexUrl),
    async readIndex() {
      const url = httpUrl(indexUrl);
      return get(url, CATALOG_LIMITS.indexBytes, 'index', url.origin);
    },
    async readBundle(ref) {
      const index = httpUrl(indexUrl);
      const url = httpUrl(ref, index);
      if (url.origin !== index.origin) {
        throw new Error(`bundle URL is on another origin (${url.origin}); only the index's origin (${index.origin}) is allowed`);
      }
      return bundleSlot(() => get(url, CATALOG_LIMITS.bundleBytes, 'bundle', index.origin));
    },
  };
}
