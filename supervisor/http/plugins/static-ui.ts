// Serves the built web UI from ui/dist, with a GET catch-all that returns the
// entry page for client-side routes. Paths under /api never reach the UI:
// the caller passes the normalised path (request-path.ts) it judged by, so
// no spelling of an /api target gets the page. The entry page carries its
// own content policy (security-headers.ts).
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyReply } from 'fastify';
import { setPagePolicy } from './security-headers.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

const FALLBACK_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>svc</title></head>
<body><h1>svc</h1><p>The dashboard UI is not built. Run <code>npm run build</code>.</p></body></html>`;

export interface StaticUi {
  /** Handles a GET/HEAD for a normalised non-/api path; returns false when it did not. */
  serve(path: string, reply: FastifyReply): boolean;
}

export function createStaticUi(distDir: string): StaticUi {
  const root = normalize(distDir + sep);
  const indexPath = join(distDir, 'index.html');
  // Read once: the entry page is served for every client route.
  const index = existsSync(indexPath) ? readFileSync(indexPath) : Buffer.from(FALLBACK_PAGE);
  return {
    serve(path, reply) {
      if (extname(path) !== '' && path !== '/index.html') {
        const file = normalize(join(distDir, path));
        if (file.startsWith(root) && existsSync(file) && statSync(file).isFile()) {
          const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
          if (type.startsWith('text/html')) setPagePolicy(reply);
          // Hashed asset names may be cached for long; the entry page never is.
          void reply
            .header('Content-Type', type)
            .header('Cache-Control', path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache')
            .send(createReadStream(file));
          return true;
        }
        return false;
      }
      setPagePolicy(reply);
      void reply
        .header('Content-Type', 'text/html; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .header('X-Content-Type-Options', 'nosniff')
        .send(index);
      return true;
    },
  };
}
