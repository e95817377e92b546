// A POST that answers with an SSE stream (install-gateway, gateway start and
// restart, self-update): fetch, then the body read as text through the frame
// reader. A refusal before the stream (a 4xx/5xx JSON envelope such as the
// 409 "an install is already running", the access gate) throws ApiError like
// api() does; an HTML answer on /api is never read as a stream. The streams
// themselves are started from api/system-streams.ts and followed by
// the jobs feature (features/jobs).
import { gateStore, isGateRefusal } from './access-gate.ts';
import { errorMessage, readJson } from './client.ts';
import { ApiError } from './errors.ts';
import { createFrameReader, type JobFrame } from './op-stream.ts';

export async function postStream(path: string, body: unknown, onFrame: (f: JobFrame) => void): Promise<void> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
    credentials: 'same-origin',
  });
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok || !type.includes('text/event-stream')) {
    const json = await readJson(res);
    if (isGateRefusal(res.status, json)) gateStore.set({ locked: true });
    throw new ApiError(res.status, res.ok ? 'the server did not answer with a stream' : errorMessage(res.status, json), json);
  }
  if (!res.body) return;
  const reader = createFrameReader(onFrame, (data) => console.warn('ignored a stream frame that is not one of svc\'s', data.slice(0, 200)));
  const decoder = new TextDecoder();
  const stream = res.body.getReader();
  for (;;) {
    const { done, value } = await stream.read();
    if (done) break;
    reader.feed(decoder.decode(value, { stream: true }));
  }
  reader.feed(decoder.decode());
}
