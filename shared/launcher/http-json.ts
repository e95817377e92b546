// A minimal GET that returns status and parsed JSON, with a hard timeout and
// no keep-alive agent, so a probe can never hang the launcher or keep it
// alive after its work is done. It sends no cookie; the access token only
// when the caller passes it (discover.ts decides where it may go).
import { request } from 'node:http';

export interface JsonReply {
  status: number;
  /** The parsed body, or undefined when it was not JSON. Untrusted: validate it. */
  body: unknown;
}

export interface GetJsonOptions {
  host: string;
  port: number;
  path: string;
  timeoutMs: number;
  /** Sent as `Authorization: Bearer <token>`; only to a port discover.ts identified as svc's own. */
  bearer?: string;
}

/** Replies larger than this are not a dashboard's settings or version. */
const MAX_BODY_BYTES = 256 * 1024;

/** Resolves null when nothing usable answered (refused, reset, timeout, oversized). */
export function getJson(opts: GetJsonOptions): Promise<JsonReply | null> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (value: JsonReply | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(value);
    };
    const req = request(
      {
        host: opts.host,
        port: opts.port,
        path: opts.path,
        method: 'GET',
        agent: false,
        headers: { accept: 'application/json', ...(opts.bearer ? { authorization: `Bearer ${opts.bearer}` } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) finish(null);
          else chunks.push(chunk);
        });
        res.on('error', () => finish(null));
        res.on('end', () => {
          let body: unknown;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            // Not JSON: the caller's schema check rejects `undefined`.
            body = undefined;
          }
          finish({ status: res.statusCode ?? 0, body });
        });
      },
    );
    const timer = setTimeout(() => finish(null), opts.timeoutMs);
    // Refused or reset: simply "no dashboard here".
    req.on('error', () => finish(null));
    req.end();
  });
}
