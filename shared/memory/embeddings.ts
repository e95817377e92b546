// The optional embedding provider: an OpenAI-compatible `POST <url>/embeddings`
// with `{ model, input }` and a bearer key when one is set. Whether memory
// uses one is decided once, when the store is built, from the configuration;
// a provider that fails at a call degrades that call to full-text search.
import { z } from 'zod';

export const EMBED_TIMEOUT_MS = 10_000;
/** Characters of a memory sent for embedding (title and content). */
export const EMBED_INPUT_MAX = 8_000;

export interface Embedder {
  readonly model: string;
  /** The vector for `text`; rejects on any failure (HTTP status, timeout, malformed body). */
  embed(text: string): Promise<Float32Array>;
}

export interface EmbedderOptions {
  url: string;
  model: string;
  apiKey?: string | null;
  timeoutMs?: number;
}

const EmbeddingsResponse = z.object({
  data: z.array(z.object({ embedding: z.array(z.number().finite()).min(1).max(65_536) })).min(1),
});

export function createEmbedder(opts: EmbedderOptions): Embedder {
  const endpoint = `${opts.url.replace(/\/+$/, '')}/embeddings`;
  const timeoutMs = opts.timeoutMs ?? EMBED_TIMEOUT_MS;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  return {
    model: opts.model,
    async embed(text) {
      const res = await fetch(endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: opts.model, input: text.slice(0, EMBED_INPUT_MAX) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) {
        // The body may echo the request; only the status leaves this function.
        await res.body?.cancel();
        throw new Error(`embeddings provider answered HTTP ${res.status}`);
      }
      const parsed = EmbeddingsResponse.safeParse(await res.json());
      if (!parsed.success) throw new Error('embeddings provider answered an unexpected body');
      return Float32Array.from(parsed.data.data[0]?.embedding ?? []);
    },
  };
}

/** Cosine similarity in [-1, 1]; 0 when the lengths differ or a vector is all zeros. */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** A vector as stored: little-endian float32. */
export function vectorToBlob(v: Float32Array): Buffer {
  const b = Buffer.alloc(v.length * 4);
  for (let i = 0; i < v.length; i += 1) b.writeFloatLE(v[i] as number, i * 4);
  return b;
}

export function blobToVector(b: Buffer): Float32Array {
  const v = new Float32Array(Math.floor(b.length / 4));
  for (let i = 0; i < v.length; i += 1) v[i] = b.readFloatLE(i * 4);
  return v;
}
