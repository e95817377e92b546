// Raw HTTP helpers for end-to-end tests: requests with a chosen Host header,
// WebSocket upgrade attempts, and an SSE reader.
import { request } from 'node:http';
import { connect } from 'node:net';
import { DEFAULT_WAIT_MS } from './wait.ts';

export function rawRequest(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/** Sends an upgrade request; resolves with the first response line, or 'destroyed' when the socket closes without one. */
export function tryUpgrade(port: number, path: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve) => {
    const sock = connect({ host: '127.0.0.1', port });
    let data = '';
    // Only a server that holds the socket silent gets here; a slow machine is not one.
    sock.setTimeout(DEFAULT_WAIT_MS, () => {
      sock.destroy();
      resolve(data ? (data.split('\r\n')[0] ?? '') : 'timeout');
    });
    sock.on('connect', () => {
      const lines = [
        `GET ${path} HTTP/1.1`,
        ...('Host' in headers ? [] : [`Host: 127.0.0.1:${port}`]),
        'Connection: Upgrade',
        'Upgrade: websocket',
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        '',
        '',
      ];
      sock.write(lines.join('\r\n'));
    });
    // The status line is the answer: an accepted upgrade keeps the socket open (and a proxied one may
    // carry pings), so waiting for its close or for it to go idle could wait forever.
    sock.on('data', (d) => {
      data += d.toString();
      const end = data.indexOf('\r\n');
      if (end < 0) return;
      sock.destroy();
      resolve(data.slice(0, end));
    });
    sock.on('error', () => undefined);
    sock.on('close', () => resolve(data ? (data.split('\r\n')[0] ?? '') : 'destroyed'));
  });
}

export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/** Reads an SSE stream with fetch; frames accumulate in `frames`. */
export async function openSse(url: string, headers: Record<string, string> = {}) {
  const ac = new AbortController();
  const res = await fetch(url, { headers, signal: ac.signal });
  const frames: SseFrame[] = [];
  const waiters: Array<() => void> = [];
  let buf = '';
  const pump = (async () => {
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += dec.decode(value, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n\n')) !== -1) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const f: SseFrame = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) f.comment = line.slice(1).trim();
          else if (line.startsWith('id: ')) f.id = line.slice(4);
          else if (line.startsWith('event: ')) f.event = line.slice(7);
          else if (line.startsWith('data: ')) f.data = line.slice(6);
        }
        frames.push(f);
        for (const w of waiters.splice(0)) w();
      }
    }
  })().catch(() => undefined);
  return {
    res,
    frames,
    /** Waits until `pred` holds over the frames (re-checked on each frame); the timeout only stops a hang. */
    async until(pred: (frames: SseFrame[]) => boolean, timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!pred(frames)) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`SSE condition not met in ${timeoutMs} ms; frames: ${JSON.stringify(frames).slice(0, 2000)}`);
        await new Promise<void>((r) => {
          const timer = setTimeout(r, left);
          waiters.push(() => {
            clearTimeout(timer);
            r();
          });
        });
      }
    },
    close() {
      ac.abort();
      return pump;
    },
  };
}
