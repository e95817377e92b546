// The streaming pass-through: one call forwarded to the real provider, its
// answer written to the caller chunk by chunk as it arrives (never buffered
// whole; the upstream is paused while the caller cannot take more), its
// usage read on the side. Every non-2xx status and body is passed through
// unchanged, so the gateway's own retry and cooldown rules apply to the
// provider's errors. Settles exactly once with what happened:
//   ok              the upstream answered 2xx and its body ended
//   upstream_error  the upstream answered non-2xx (passed through)
//   unreachable     no answer came (connect error): the caller gets nothing yet
//   cut             the upstream's body ended early (socket destroyed)
//   capped          a cap was reached while the answer streamed (`meter`
//                   said stop): the caller got the events up to the chunk
//                   that reached it, then a normal length-limited finish
//                   (stream-cut.ts); the provider's request is destroyed.
//   aborted         the caller went away first. A non-streamed answer is
//                   generated and billed whole whether anyone reads it or
//                   not, so svc reads it to its end (writing nothing) for
//                   its usage (`whole`). A stream is closed: closing is how
//                   a client stops a provider generating (a person's Stop),
//                   and what it billed until then is not known (the handler
//                   charges at least the reservation).
// Every answer carries `x-svc-overhead-ms`: the time svc spent on the call
// before it went out (token, parse, estimate, reservation), so a user can see
// what svc adds without a benchmark of their own.
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { RoutedApi } from '../model-routing/registry.ts';
import { StreamCut } from './stream-cut.ts';
import { modelOfBody, SseUsageReader, usageOfBody, type CallUsage } from './usage.ts';

export type ForwardOutcome = 'ok' | 'upstream_error' | 'unreachable' | 'cut' | 'aborted' | 'capped';

export interface ForwardResult {
  outcome: ForwardOutcome;
  status: number | null;
  usage: CallUsage | null;
  /** Characters of streamed output seen (the fallback when usage never came). */
  outputChars: number;
  /** From `startedAt` to the first upstream body byte written to the caller. */
  ttftMs: number | null;
  durationMs: number;
  /** The connect error's message when unreachable (no key in it: it names host and code). */
  error: string | null;
  /** The provider's answer was read to its end (an aborted call's usage is then whole). */
  whole: boolean;
  /** The model the provider says answered (its answer's `model`), when a 2xx answer named one. */
  responseModel: string | null;
}

export interface ForwardInput {
  url: URL;
  headers: Record<string, string>;
  body: Buffer;
  api: RoutedApi;
  /** The caller's response: written to directly (the route hijacked it). */
  res: ServerResponse;
  /** performance.now() when the call reached svc. */
  startedAt: number;
  /** Longest wait for the upstream's response headers. */
  headersTimeoutMs: number;
  /** Whether the caller asked for a stream: a stream is closed when the caller goes, any other answer read to its end. */
  stream: boolean;
  /**
   * Asked after each whole set of events of a 2xx stream, with the output
   * characters seen so far: false ends the answer there (a cap was reached).
   * Without it the stream passes byte for byte.
   */
  meter?: (outputChars: number) => boolean;
}

export const OVERHEAD_HEADER = 'x-svc-overhead-ms';
/** The overhead header's value: milliseconds with microsecond digits. */
export const overheadMs = (ms: number): string => Math.max(0, ms).toFixed(3);

// Keep-alive: a call reuses a warm connection to its provider instead of a
// new handshake. No socket cap: a queued call would wait for another's whole
// answer (a stream can take minutes), so every call in flight gets its own.
const httpAgent = new HttpAgent({ keepAlive: true });
const httpsAgent = new HttpsAgent({ keepAlive: true });

// Hop-by-hop headers and cookies stay between svc and the provider.
const DROP_RESPONSE = new Set(['connection', 'keep-alive', 'transfer-encoding', 'set-cookie', 'proxy-authenticate', 'upgrade', 'trailer', 'te']);

function responseHeaders(up: IncomingMessage): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !DROP_RESPONSE.has(k)) out[k] = v;
  return out;
}

/** JSON answers are copied aside for their usage up to this size; the caller gets them as they arrive either way. */
const MAX_JSON_COPY = 32 * 1024 * 1024;

export function forward(input: ForwardInput): Promise<ForwardResult> {
  const { url, res, api, startedAt } = input;
  return new Promise((resolve) => {
    const cut = input.meter ? new StreamCut(api) : null;
    const reader = new SseUsageReader(api, cut ? (e) => cut.see(e) : null);
    // A metered stream is written whole events at a time, so a cut never leaves half an event.
    let partial: Buffer | null = null;
    let status: number | null = null;
    let ttftMs: number | null = null;
    let jsonCopy: Buffer[] | null = null;
    let jsonBytes = 0;
    let done = false;
    // The caller went away: the rest of the answer is read, not written.
    let callerGone = false;
    const finish = (outcome: ForwardOutcome, error: string | null = null, whole = false) => {
      if (done) return;
      done = true;
      let usage = reader.usage;
      let responseModel = reader.responseModel;
      if (jsonCopy !== null && (outcome === 'ok' || outcome === 'aborted') && jsonBytes <= MAX_JSON_COPY) {
        try {
          const body: unknown = JSON.parse(Buffer.concat(jsonCopy).toString('utf8'));
          usage = usageOfBody(api, body);
          responseModel = modelOfBody(body);
        } catch {
          // The body was passed through as the provider sent it; without
          // parseable usage the call is settled on its estimate (handler).
          usage = null;
        }
      }
      resolve({ outcome, status, usage, outputChars: reader.outputChars, ttftMs, durationMs: performance.now() - startedAt, error, whole: whole || outcome === 'ok', responseModel });
    };

    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const overhead = overheadMs(performance.now() - startedAt);
    const open = (): ClientRequest => {
      const r = send(url, {
        method: 'POST',
        headers: { ...input.headers, 'accept-encoding': 'identity' },
        agent: url.protocol === 'https:' ? httpsAgent : httpAgent,
      });
      r.setTimeout(input.headersTimeoutMs, () => r.destroy(new Error(`no answer in ${input.headersTimeoutMs} ms`)));
      return r;
    };
    let up = open();

    // The caller went away before the answer was whole.
    res.on('close', () => {
      if (done || res.writableFinished) return;
      callerGone = true;
      // The connection may be only half closed (the caller's side): end ours, or it lingers until the keep-alive timeout.
      res.destroy();
      if (input.stream) {
        up.destroy();
        // A caller may hang up as soon as it reads the stream's last event, before the provider's connection ends: that answer was whole.
        if (reader.ended) finish('ok');
        else finish('aborted');
      }
    });

    let retried = false;
    const onError = (err: NodeJS.ErrnoException) => {
      // A kept-alive socket the provider closed just as svc reused it: no
      // answer came on it, so the call goes once more, on a new socket.
      // Never after the caller left or svc itself closed the request: that error is svc's own doing.
      if (!done && !callerGone && status === null && up.reusedSocket && !retried && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
        retried = true;
        up = open();
        wire(up);
        up.end(input.body);
        return;
      }
      if (status === null && !callerGone) finish('unreachable', `${url.host}: ${err.code ?? err.message}`);
      else finish(callerGone ? 'aborted' : 'cut');
    };

    const onResponse = (ur: IncomingMessage) => {
      status = ur.statusCode ?? 502;
      up.setTimeout(0);
      const ok = status >= 200 && status < 300;
      const type = String(ur.headers['content-type'] ?? '');
      if (ok && !type.includes('text/event-stream')) jsonCopy = [];
      if (!callerGone) {
        res.writeHead(status, { ...responseHeaders(ur), [OVERHEAD_HEADER]: overhead });
        // A stream's first bytes must not wait for a second chunk; any other answer's headers go out with its body.
        if (input.stream) res.flushHeaders();
      }
      const metered = ok && jsonCopy === null && cut !== null && input.meter !== undefined;
      ur.on('data', (data: Buffer) => {
        if (done) return;
        if (ttftMs === null) ttftMs = performance.now() - startedAt;
        let chunk = data;
        if (metered) {
          const whole = partial === null ? data : Buffer.concat([partial, data]);
          const end = whole.lastIndexOf('\n\n');
          if (end === -1) {
            partial = whole;
            return;
          }
          chunk = whole.subarray(0, end + 2);
          partial = end + 2 < whole.length ? whole.subarray(end + 2) : null;
        }
        if (ok) {
          if (jsonCopy !== null) {
            jsonBytes += chunk.length;
            if (jsonBytes <= MAX_JSON_COPY) jsonCopy.push(chunk);
          } else reader.feed(chunk);
        }
        if (metered && !callerGone && !(input.meter as NonNullable<ForwardInput['meter']>)(reader.outputChars)) {
          res.end(Buffer.concat([chunk, Buffer.from((cut as StreamCut).tail())]));
          up.destroy();
          finish('capped');
          return;
        }
        if (callerGone) return;
        if (!res.write(chunk)) {
          ur.pause();
          // A caller that goes away while paused never drains: its close resumes the read.
          const resume = () => {
            res.off('drain', resume);
            res.off('close', resume);
            ur.resume();
          };
          res.once('drain', resume);
          res.once('close', resume);
        }
      });
      ur.on('error', () => {
        // The 'close' below says whether the body was whole; this listener
        // only keeps a premature close from being an uncaught error.
      });
      ur.on('close', () => {
        if (done) return;
        if (callerGone) {
          finish('aborted', null, ur.complete);
          return;
        }
        if (!ur.complete) {
          // The provider cut the stream: the caller sees the cut too (its
          // connection ends without a proper end), as it would without svc.
          res.destroy();
          finish('cut');
          return;
        }
        res.end(partial ?? undefined);
        finish(ok ? 'ok' : 'upstream_error');
      });
    };
    function wire(r: ClientRequest): void {
      r.on('error', onError);
      r.on('response', onResponse);
    }
    wire(up);
    up.end(input.body);
  });
}
