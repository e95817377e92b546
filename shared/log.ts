// Structured logging (pino). Every line's fields and message pass through the
// redactor, and request URLs lose any `access_token` value, so no secret can
// reach a log line by accident.
import { pino, type Logger, type DestinationStream } from 'pino';
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

export function createLogger(
  opts: { level: LogLevel; redactor?: Redactor; name?: string },
  destination?: DestinationStream,
): Logger {
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
    destination,
  );
}
