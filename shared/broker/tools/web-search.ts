// web_search (external): a SearXNG-style JSON endpoint, `GET <url>?q=<query>&format=json`
// with `Authorization: Bearer <SVC_SEARCH_API_KEY>` when a key is set.
// Available only when SVC_SEARCH_URL is an http(s) URL. The response is read
// up to a size cap and trimmed to a few short results, so a large or hostile
// page cannot flood the model's context or the audit log.
import { z } from 'zod';
import type { ToolDef } from '../types.ts';
import { messageOf } from '../../errors.ts';

export const SEARCH_TIMEOUT_MS = 10_000;
export const SEARCH_MAX_BYTES = 1024 * 1024;
export const SEARCH_QUERY_MAX = 256;
export const SEARCH_LIMIT_DEFAULT = 5;
export const SEARCH_LIMIT_MAX = 10;

const Input = z.object({
  query: z.string().max(4000).refine((s) => s.trim() !== '', 'query must not be blank').describe('What to search for'),
  limit: z.number().int().optional().describe(`Results wanted (1-${SEARCH_LIMIT_MAX}, default ${SEARCH_LIMIT_DEFAULT})`),
});

const Hit = z.object({
  title: z.string().catch(''),
  url: z.string().catch(''),
  content: z.string().catch(''),
});
const SearchResponse = z.object({ results: z.array(z.unknown()).catch([]) });

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

const clip = (s: string, n: number) => (s.length <= n ? s : s.slice(0, n - 1) + '…');

/** The configured endpoint as a URL, or why it cannot be used. */
export function searchEndpoint(searchUrl: string | null): { url: URL } | { problem: string } {
  if (!searchUrl) return { problem: 'set SVC_SEARCH_URL (a SearXNG-style JSON search endpoint) to enable web_search' };
  try {
    const url = new URL(searchUrl);
    if (url.protocol === 'http:' || url.protocol === 'https:') return { url };
  } catch (err) {
    return { problem: `SVC_SEARCH_URL is not a valid URL (${messageOf(err)})` };
  }
  return { problem: 'SVC_SEARCH_URL must be an http:// or https:// URL' };
}

async function readCapped(res: Response, max: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new Error(`search response larger than ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function webSearchTool(config: { searchUrl: string | null; searchApiKey: string | null }): ToolDef<typeof Input> {
  return {
    name: 'web_search',
    description: 'Searches the web through the configured search provider and returns a few results (title, url, snippet).',
    risk: 'external',
    input: Input,
    availability: () => {
      const e = searchEndpoint(config.searchUrl);
      return 'url' in e ? { available: true, diagnostics: [] } : { available: false, diagnostics: [e.problem] };
    },
    // The rewrite hook: one line of at most SEARCH_QUERY_MAX characters, limit clamped.
    normalize: ({ query, limit }) => {
      const q = query.replace(/\s+/g, ' ').trim().slice(0, SEARCH_QUERY_MAX);
      return limit === undefined ? { query: q } : { query: q, limit: Math.min(SEARCH_LIMIT_MAX, Math.max(1, limit)) };
    },
    run: async ({ query, limit }, ctx) => {
      const e = searchEndpoint(config.searchUrl);
      if (!('url' in e)) throw new Error(e.problem);
      const url = new URL(e.url);
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      const headers: Record<string, string> = { accept: 'application/json' };
      if (config.searchApiKey) headers.authorization = `Bearer ${config.searchApiKey}`;
      const res = await fetch(url, { headers, signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(SEARCH_TIMEOUT_MS)]) });
      const body = await readCapped(res, SEARCH_MAX_BYTES);
      if (!res.ok) throw new Error(`search provider answered HTTP ${res.status}`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch (err) {
        throw new Error(`search provider returned invalid JSON (${messageOf(err)})`);
      }
      const shape = SearchResponse.safeParse(parsed);
      if (!shape.success) throw new Error('search provider returned JSON without a results list');
      const hits: SearchHit[] = shape.data.results
        .map((r) => Hit.safeParse(r))
        .flatMap((r) => (r.success ? [r.data] : []))
        .slice(0, limit ?? SEARCH_LIMIT_DEFAULT)
        .map((h) => ({ title: clip(h.title, 200), url: clip(h.url, 500), snippet: clip(h.content, 500) }));
      const text = hits.length === 0 ? 'no results' : hits.map((h, i) => `${i + 1}. ${h.title}\n${h.url}\n${h.snippet}`).join('\n\n');
      return { text, data: { query, results: hits } };
    },
  };
}
