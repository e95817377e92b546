// A JSON response rebuilt only when the database has changed: the body is
// serialized once per database version and served as bytes with a strong
// ETag, so an unchanged list costs one read of the WAL-index header per
// request (shared/db/db-version.ts), and a 304 for a client that revalidates.
//
// A client that accepts gzip (every browser) gets the body compressed, also
// once per version: a team list is repetitive JSON that gzip shrinks about
// six times (36 KB to ~6 KB for 50 teams and 250 assignments), which is what
// decides its cost on the wire and in the client. The two representations have
// their own ETags, as HTTP requires of strong validators.
import { createHash } from 'node:crypto';
import { constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptsGzip, ifNoneMatchHits } from './conditional.ts';

/** Bodies smaller than this are sent as they are: gzip's framing would eat most of the gain. */
const GZIP_MIN_BYTES = 1024;

interface Representation {
  body: Buffer;
  etag: string;
  headers: Record<string, string | number>;
  /** For a 304: the validators and caching headers, without the body's. */
  notModified: Record<string, string>;
}

interface Entry {
  version: number;
  identity: Representation;
  /** Built on the first request that accepts it; null when compression does not pay. */
  gzip?: Representation | null;
}

export interface CachedJson<K extends string> {
  send(key: K, req: FastifyRequest, reply: FastifyReply): void;
}

function representation(body: Buffer, etag: string, encoding: 'gzip' | null): Representation {
  const notModified: Record<string, string> = { etag, 'cache-control': 'no-cache', vary: 'accept-encoding' };
  const headers: Record<string, string | number> = {
    ...notModified,
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
  };
  if (encoding) headers['content-encoding'] = encoding;
  return { body, etag, headers, notModified };
}

export function createCachedJson<K extends string>(version: () => number, build: (key: K) => unknown): CachedJson<K> {
  const entries = new Map<K, Entry>();
  const current = (key: K): Entry => {
    const v = version();
    const hit = entries.get(key);
    if (hit && hit.version === v) return hit;
    const body = Buffer.from(JSON.stringify(build(key)));
    const hash = createHash('sha1').update(body).digest('base64url');
    const entry: Entry = { version: v, identity: representation(body, `"${hash}"`, null) };
    entries.set(key, entry);
    return entry;
  };
  const gzipOf = (e: Entry): Representation | null => {
    if (e.gzip === undefined) {
      const plain = e.identity.body;
      const packed = plain.length >= GZIP_MIN_BYTES ? gzipSync(plain, { level: constants.Z_DEFAULT_COMPRESSION }) : null;
      e.gzip = packed && packed.length < plain.length ? representation(packed, `${e.identity.etag.slice(0, -1)}-gz"`, 'gzip') : null;
    }
    return e.gzip;
  };
  return {
    send(key, req, reply) {
      const e = current(key);
      const r = (acceptsGzip(req.headers['accept-encoding']) && gzipOf(e)) || e.identity;
      if (ifNoneMatchHits(req.headers['if-none-match'], r.etag)) return void reply.code(304).headers(r.notModified).send();
      void reply.headers(r.headers).send(r.body);
    },
  };
}
