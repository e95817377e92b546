// A new stream's catch-up is written in pieces of at most 256 KB, each after
// the socket took the previous one (issue 15 #15): big rows never build one
// huge write, and a slow reader is sent no faster than it reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { setImmediate as turn } from 'node:timers/promises';
import { CATCH_UP_MAX_BYTES, writeFrames, type SseStream } from '../../supervisor/http/sse.ts';
import { buildTestApp } from '../helpers/app.ts';
import { openSse } from '../helpers/http.ts';

const KB = 1024;

function fakeStream() {
  const writes: string[] = [];
  let release: (() => void) | null = null;
  const stream: SseStream & { isClosed: boolean } = {
    isClosed: false,
    write: (chunk) => {
      if (stream.isClosed) return false;
      writes.push(String(chunk));
      return true;
    },
    close: () => {
      stream.isClosed = true;
      release?.();
    },
    get closed() {
      return stream.isClosed;
    },
    onClose: () => undefined,
    drained: () => new Promise<void>((r) => (release = r)),
  };
  return { stream, writes, drain: () => release?.() };
}

void test('Limits (issue 15 #15): catch-up frames go out in writes of at most 256 KB, the next only after the socket drained', async () => {
  const { stream, writes, drain } = fakeStream();
  const frames = Array.from({ length: 40 }, (_, i) => `id: ${i}\ndata: ${'x'.repeat(20 * KB)}\n\n`);
  const done = writeFrames(stream, frames);
  await turn();
  assert.equal(writes.length, 1, 'one write, then a wait for drain');
  while (writes.join('').length < frames.join('').length) {
    const before: number = writes.length;
    await turn();
    assert.equal(writes.length, before, 'nothing more is written until the socket drains');
    drain();
    await turn();
    assert.equal(writes.length, before + 1);
  }
  drain();
  assert.equal(await done, true);
  assert.equal(writes.join(''), frames.join(''), 'every frame, in order, none split');
  for (const w of writes) assert.ok(Buffer.byteLength(w) <= CATCH_UP_MAX_BYTES, `a write of ${Buffer.byteLength(w)} bytes`);
  assert.equal(CATCH_UP_MAX_BYTES, 256 * KB);
});

void test('Limits (issue 15 #15): a frame larger than the cap goes alone; a stream closed while waiting stops the catch-up', async () => {
  const { stream, writes, drain } = fakeStream();
  const big = `data: ${'y'.repeat(300 * KB)}\n\n`;
  const done = writeFrames(stream, ['a\n\n', big, 'b\n\n', 'c\n\n']);
  for (let i = 0; i < 3; i++) {
    await turn();
    drain();
  }
  assert.equal(await done, true);
  assert.deepEqual(writes, ['a\n\n', big, 'b\n\nc\n\n']);

  const second = fakeStream();
  const stopped = writeFrames(second.stream, Array.from({ length: 30 }, () => `data: ${'z'.repeat(20 * KB)}\n\n`));
  await turn();
  second.stream.close();
  assert.equal(await stopped, false);
  assert.equal(second.writes.length, 1);
});

void test('GET /api/obs/stream (issue 15 #15): a catch-up of 10 MB of rows reaches a real socket complete and in order, never in a write over 256 KB', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const rows = Array.from({ length: 501 }, (_, i) => ({ kind: 'tool_call' as const, data: { i, blob: 'x'.repeat(20 * KB) } }));
  for (let i = 0; i < rows.length; i += 100) runtime.deps.eventLog.appendMany(rows.slice(i, i + 100));
  // Every write of the stream is measured on its way to the socket.
  const sizes: number[] = [];
  const sse = runtime.deps.sse;
  const open = sse.open.bind(sse);
  sse.open = (req, reply, opts) => {
    const stream = open(req, reply, opts);
    const write = stream.write.bind(stream);
    stream.write = (chunk) => {
      sizes.push(Buffer.byteLength(chunk));
      return write(chunk);
    };
    return stream;
  };
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const client = await openSse(`http://127.0.0.1:${port}/api/obs/stream?since=0`);
  try {
    await client.until((f) => f.filter((x) => x.id !== undefined).length === 501, 30_000);
  } finally {
    // Before buildTestApp's cleanup: app.close() waits for open connections.
    await client.close();
    sse.closeAll();
  }
  const ids = client.frames.filter((x) => x.id !== undefined).map((x) => Number(x.id));
  assert.deepEqual(ids, Array.from({ length: 501 }, (_, i) => i + 1));
  assert.ok(sizes.length > 1);
  assert.ok(Math.max(...sizes) <= CATCH_UP_MAX_BYTES, `largest write ${Math.max(...sizes)} bytes`);
});
