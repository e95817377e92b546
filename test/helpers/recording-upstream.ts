// A recording pass-through in front of the fake model, for the model-routing
// end-to-end tests: every request is forwarded unchanged (streamed both
// ways) and its path and headers are kept, so a test can see which key and
// which traceparent reached "the provider". Not a test file.
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The request body as text (filled as it streams through). */
  body: string;
}

export interface Recorder {
  /** Base URL to put in the gateway's provider entry (`http://127.0.0.1:<port>/v1`). */
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** `target` is the fake model's base URL (`http://127.0.0.1:<port>/v1`). */
export async function startRecorder(target: string): Promise<Recorder> {
  const to = new URL(target);
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const entry: SeenRequest = { path, headers: req.headers, body: '' };
    seen.push(entry);
    req.on('data', (chunk: Buffer) => void (entry.body += chunk.toString('utf8')));
    const upstream = httpRequest({ host: to.hostname, port: to.port, method: req.method, path, headers: { ...req.headers, host: to.host } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${to.pathname.replace(/\/$/, '')}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
