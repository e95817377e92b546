// Structured logging (pino). Every line's fields and message pass through the
// redactor, and request URLs lose any `access_token` value, so no secret can
// reach a log line by accident. On a terminal the lines are printed by
// pino-pretty; anywhere else (a pipe, a file, a test's stream) they are JSON.
import { createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';
import { pino, type Logger, type DestinationStream } from 'pino';
import type { isColorSupported as IsColorSupported, prettyFactory as PrettyFactory } from 'pino-pretty';
import type { LogLevel } from './config.ts';
import { maskData, maskText, stripAccessToken, type Redactor } from './redact.ts';

export type { Logger };

interface ReqLike { method?: string; url?: string; id?: unknown; ip?: string }
interface ResLike { statusCode?: number }

function isPlain(v: unknown): boolean {
  if (typeof v === 'string' || Array.isArray(v)) return true;
  if (v === null || typeof v !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** A non-Error thrown value, described rather than printed as [object Object]. */
function describeValue(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    // Cyclic or otherwise unserialisable: its string form is the best we have.
    return String(v);
  }
}

export interface LoggerOptions {
  level: LogLevel;
  redactor?: Redactor;
  name?: string;
  /**
   * Readable lines (pino-pretty) instead of JSON. Default: the destination
   * (stdout when none is given) is a terminal and this is the main thread.
   */
  pretty?: boolean;
}

/** A stream that may say whether it is a terminal, as process.stdout does. */
type MaybeTty = DestinationStream & { isTTY?: boolean };

/** The isTTY decision: a person reads this stream, so print for a person. */
export function wantsPretty(opts: Pick<LoggerOptions, 'pretty'>, destination?: MaybeTty): boolean {
  if (opts.pretty !== undefined) return opts.pretty;
  // A worker's stdout is a pipe to the main thread whatever the terminal is.
  return isMainThread && (destination ?? (process.stdout as MaybeTty)).isTTY === true;
}

/**
 * pino-pretty run in this thread over each finished JSON line, rather than as
 * a pino transport (a worker thread): no extra thread, and each line is
 * written before the log call returns, so lines stay in order with the
 * console output around them (`svc ready on …`) and a fatal handler's last
 * line is on the terminal before it exits. It formats what pino already
 * serialized, so every line went through the redaction above first.
 */
function prettyDestination(out: DestinationStream, colorize: boolean): DestinationStream {
  const prettify = pinoPretty().prettyFactory({ colorize, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  return { write: (line: string) => void out.write(prettify(line)) };
}

export function createLogger(opts: LoggerOptions, destination?: MaybeTty): Logger {
  const text = (s: string) => (opts.redactor ? opts.redactor.text(s) : maskText(s));
  const deep = (v: unknown) => (opts.redactor ? opts.redactor.deep(v) : maskData(v));
  // formatters.log runs before the serializers: walk only plain data, and
  // leave class instances (Error, fastify's Request) to their serializers.
  const maskFields = (obj: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    // Masked as a one-key object so that a sensitive key name masks its value too.
    for (const [k, v] of Object.entries(obj)) out[k] = isPlain(v) ? (deep({ [k]: v }) as Record<string, unknown>)[k] : v;
    return out;
  };
  return pino(
    {
      level: opts.level,
      name: opts.name ?? 'svc',
      serializers: {
        req: (req: ReqLike) => ({ method: req.method, url: stripAccessToken(req.url ?? ''), id: req.id }),
        res: (res: ResLike) => ({ statusCode: res.statusCode }),
        err: (err: unknown) =>
          err instanceof Error
            ? { type: err.name, message: text(err.message), code: (err as NodeJS.ErrnoException).code, stack: err.stack ? text(err.stack) : undefined }
            : { type: typeof err, message: text(describeValue(err)) },
      },
      formatters: {
        // Runs after serializers: mask whatever fields a call site passed.
        log: maskFields,
      },
      hooks: {
        logMethod(args, method) {
          const masked = args.map((a) => (typeof a === 'string' ? text(a) : a)) as Parameters<typeof method>;
          method.apply(this, masked);
        },
      },
    },
    wantsPretty(opts, destination) ? prettyTo(destination) : destination,
  );
}

/** Pretty lines to an injected stream (plain text), or to stdout (coloured where the terminal can show it). */
function prettyTo(destination: DestinationStream | undefined): DestinationStream {
  if (destination) return prettyDestination(destination, false);
  return prettyDestination(pino.destination({ dest: 1, sync: true }), pinoPretty().isColorSupported);
}

interface PinoPrettyModule {
  prettyFactory: typeof PrettyFactory;
  isColorSupported: typeof IsColorSupported;
}
let pinoPrettyModule: PinoPrettyModule | undefined;

/**
 * pino-pretty, loaded on first use: only a terminal needs it, and loading it
 * costs about 50 ms, which the server's boot, every worker thread and every
 * MCP stdio binary would otherwise pay.
 */
function pinoPretty(): PinoPrettyModule {
  pinoPrettyModule ??= createRequire(import.meta.url)('pino-pretty') as PinoPrettyModule;
  return pinoPrettyModule;
}
