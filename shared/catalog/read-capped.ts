// Reading untrusted bytes with a ceiling: a file or an HTTP body larger than
// the format allows is refused before it is all in memory, and a remote that
// stalls is cut off by the timeout rather than holding a request open.
import { open } from 'node:fs/promises';

export class TooLargeError extends Error {
  constructor(what: string, limit: number) {
    super(`${what} is larger than ${limit} bytes`);
    this.name = 'TooLargeError';
  }
}

/** A file's bytes, refused past `limit` (checked by size, then while reading, as the file may grow). */
export async function readFileCapped(path: string, limit: number, what: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size > limit) throw new TooLargeError(what, limit);
    const buf = Buffer.alloc(limit + 1);
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, total, buf.length - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > limit) throw new TooLargeError(what, limit);
    }
    return buf.subarray(0, total);
  } finally {
    await handle.close();
  }
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * An http(s) GET's body, refused on a non-2xx status, past `limit` bytes or
 * after `timeoutMs`. A redirect is never followed (it could lead anywhere,
 * another origin or a local address): it is refused with its status.
 */
export async function fetchCapped(url: string, opts: { limit: number; timeoutMs: number; what: string; fetch: FetchLike }): Promise<Buffer> {
  const signal = AbortSignal.timeout(opts.timeoutMs);
  const res = await opts.fetch(url, { signal, headers: { accept: 'application/json' }, redirect: 'manual' });
  if ((res.status >= 300 && res.status < 400) || res.type === 'opaqueredirect') {
    await res.body?.cancel();
    throw new Error(`${opts.what}: HTTP ${res.status} redirect refused (svc does not follow redirects: use the final URL)`);
  }
  if (!res.ok) {
    // Not read: only the status matters, and cancelling frees the socket.
    await res.body?.cancel();
    throw new Error(`${opts.what}: HTTP ${res.status}`);
  }
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > opts.limit) {
    await res.body?.cancel();
    throw new TooLargeError(opts.what, opts.limit);
  }
  if (!res.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > opts.limit) {
      await reader.cancel();
      throw new TooLargeError(opts.what, opts.limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
