// Issue 16 #3: SSE framing lives only in supervisor/http/sse.ts. The frames'
// bytes are the spec's ("SSE streams": `id: <cursor>` + `data: <json>` + a
// blank line; operation frames `data: <json>` only; `: connected` on open and
// `: keepalive` every 20 s), read here off a real socket; and no other source
// file spells an SSE line itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { SseRegistry, frameComment, frameData, frameRow, type SseStream } from '../../supervisor/http/sse.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

void test('Clean seams (issue 16 #3): the frame functions write the spec\'s bytes', () => {
  assert.equal(frameRow(42, '{"a":1}'), 'id: 42\ndata: {"a":1}\n\n');
  assert.equal(frameData('{"type":"complete"}'), 'data: {"type":"complete"}\n\n');
  assert.equal(frameComment('keepalive'), ': keepalive\n\n');
  // A JSON text never holds a raw newline, so one data line carries any value.
  const json = JSON.stringify({ line: 'two\nlines' });
  assert.equal(frameData(json).split('\n').length, 3);
});

void test('Clean seams (issue 16 #3): a stream opens with `: connected`, carries the frames as written and a `: keepalive`', async (t) => {
  const registry = new SseRegistry({ maxStreams: 4, keepaliveMs: 5 });
  const app = Fastify();
  let opened: SseStream | null = null;
  app.get('/s', (req, reply) => {
    opened = registry.open(req, reply);
    opened.write(frameRow(7, '{"seq":7}'));
    opened.write(frameData('{"type":"progress"}'));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.after(async () => {
    registry.closeAll();
    await app.close();
  });
  const { port } = app.server.address() as AddressInfo;
  // Read until the first keepalive arrived: an event, not a clock.
  const body = await new Promise<string>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/s' }, (res) => {
      assert.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes(': keepalive\n\n')) {
          req.destroy();
          resolve(text);
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
  assert.ok(opened);
  assert.ok(body.startsWith(': connected\n\nid: 7\ndata: {"seq":7}\n\ndata: {"type":"progress"}\n\n: keepalive\n\n'), JSON.stringify(body));
});

/** Every .ts source file svc runs (tests and the UI excluded). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === 'node_modules') return [];
    return statSync(p).isDirectory() ? sources(p) : name.endsWith('.ts') ? [p] : [];
  });
}

void test('Clean seams (issue 16 #3): no source file but supervisor/http/sse.ts spells an SSE line (`data:`, `id:`, `event:`, a `:` comment); the model endpoint\'s refusal writes a provider\'s stream', () => {
  const files = ['supervisor', 'shared', 'workers', 'bin'].flatMap((d) => sources(join(ROOT, d)));
  assert.ok(files.length > 50, 'the walk found the sources');
  // A string or template literal that opens with an SSE field, or a comment line ending in a blank line.
  const sseLiteral = /[`'"](?:data|id|event|retry): |[`'"]: [^`'"\n]*\\n\\n/;
  // svc's own streams are framed in sse.ts. The model endpoint's provider-sse.ts
  // is the one other writer (its refusal and the close of a capped answer): it
  // speaks a provider's wire format (OpenAI and Anthropic streams), which the
  // gateway reads, not svc's frames.
  const allowed = new Set([join('supervisor', 'http', 'sse.ts'), join('shared', 'model-proxy', 'provider-sse.ts')]);
  const offenders = files
    .filter((f) => !allowed.has(relative(ROOT, f)))
    .flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${relative(ROOT, f)}:${i + 1}` }))
        // Comments may describe the format; code may not write it.
        .filter(({ line }) => !/^\s*(\/\/|\*|\/\*)/.test(line) && sseLiteral.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
  assert.deepEqual(offenders, []);
});
