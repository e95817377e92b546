// A JSON response rebuilt only when the database has changed: the body is
// serialized once per database version and served as bytes with a strong
// ETag, so an unchanged list costs one tiny query per request (and a 304 for
// a client that revalidates).
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DbVersion } from './db-version.ts';

interface Entry {
  version: string;
  body: Buffer;
  etag: string;
}

export interface CachedJson<K extends string> {
  send(key: K, req: FastifyRequest, reply: FastifyReply): void;
}

export function createCachedJson<K extends string>(version: DbVersion, build: (key: K) => unknown): CachedJson<K> {
  const entries = new Map<K, Entry>();
  const current = (key: K): Entry => {
    const v = version();
    const hit = entries.get(key);
    if (hit && hit.version === v) return hit;
    const body = Buffer.from(JSON.stringify(build(key)));
    const entry = { version: v, body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
    entries.set(key, entry);
    return entry;
  };
  return {
    send(key, req, reply) {
      const e = current(key);
      void reply.header('etag', e.etag).header('cache-control', 'no-cache');
      if (req.headers['if-none-match'] === e.etag) return void reply.code(304).send();
      void reply.header('content-type', 'application/json; charset=utf-8').send(e.body);
    },
  };
}
