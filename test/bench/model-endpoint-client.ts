// The model-endpoint bench's client: one chat-completions call, streamed or
// not, over node:http with a keep-alive agent, timed on this process's clock.
// Every answer is checked: a 200, the JSON answer's text, and for a stream
// every numbered chunk in order (0, 1, 2, ...), then the usage chunk, then
// `[DONE]` and nothing after. A stream that loses, repeats or reorders a
// frame is counted, not thrown, so the load phases can report how many.
import { request, type Agent } from 'node:http';
import { specText, type CallSpec } from './fixtures/model-upstream.ts';

export const OVERHEAD_HEADER = 'x-svc-overhead-ms';

export interface Target {
  label: string;
  url: URL;
  token: string | null;
}

export interface CallResult {
  /** Request written → answer complete (ms). */
  totalMs: number;
  /** Request written → first chunk with `"i":0` received (streams; NaN otherwise). */
  ttftMs: number;
  /** performance.now() when each chunk k arrived (streams). */
  arrived: number[];
  /** The answer's `x-svc-overhead-ms`, NaN when absent. */
  overheadMs: number;
  /** Frames missing, repeated or out of order, and anything wrong after them (streams). */
  badFrames: number;
}

export function call(agent: Agent, to: Target, spec: CallSpec, model: string, stream: boolean): Promise<CallResult> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({
      model,
      max_tokens: 100,
      messages: [{ role: 'user', content: specText(spec) }],
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    });
    const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    if (to.token !== null) headers.authorization = `Bearer ${to.token}`;
    const t0 = performance.now();
    const req = request(to.url, { method: 'POST', agent, headers }, (res) => {
      const overhead = res.headers[OVERHEAD_HEADER];
      const overheadMs = typeof overhead === 'string' ? Number(overhead) : NaN;
      if (res.statusCode !== 200) {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => reject(new Error(`${to.label}: HTTP ${res.statusCode} ${text.slice(0, 300)}`)));
        return;
      }
      res.setEncoding('utf8');
      let text = '';
      const arrived: number[] = [];
      let ttftMs = NaN;
      let expected = 0;
      let bad = 0;
      let usage = false;
      let done = false;
      res.on('data', (d: string) => {
        const now = performance.now();
        if (!stream) {
          text += d;
          return;
        }
        text += d;
        let end: number;
        while ((end = text.indexOf('\n\n')) >= 0) {
          const frame = text.slice(0, end);
          text = text.slice(end + 2);
          if (!frame.startsWith('data: ') || done) {
            bad++;
            continue;
          }
          const data = frame.slice(6);
          if (data === '[DONE]') {
            done = true;
            continue;
          }
          const parsed = JSON.parse(data) as { i?: number; usage?: unknown };
          if (typeof parsed.i === 'number') {
            if (parsed.i !== expected || usage) bad++;
            if (parsed.i === 0) ttftMs = now - t0;
            arrived[parsed.i] = now;
            expected = parsed.i + 1;
          } else if (parsed.usage) usage = true;
          else bad++;
        }
      });
      res.on('error', reject);
      res.on('end', () => {
        const totalMs = performance.now() - t0;
        if (!stream) {
          const answer = JSON.parse(text) as { choices?: Array<{ message?: { content?: string } }> };
          if (answer.choices?.[0]?.message?.content !== 'ok') return reject(new Error(`${to.label}: unexpected answer ${text.slice(0, 200)}`));
          return resolve({ totalMs, ttftMs, arrived, overheadMs, badFrames: 0 });
        }
        // Lost chunks at the end, a missing usage chunk or [DONE], bytes after the last frame.
        const missing = Math.max(0, spec.chunks - expected) + (usage ? 0 : 1) + (done ? 0 : 1) + (text.length > 0 ? 1 : 0);
        resolve({ totalMs, ttftMs, arrived, overheadMs, badFrames: bad + missing });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
