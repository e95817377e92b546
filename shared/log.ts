// Structured logging (pino). Every line's fields and message pass through the
// redactor, and request URLs lose any `access_token` value, so no secret can
// reach a log line by accident.
import { pino, type Logger, type DestinationStream } from 'pino';
import type { LogLevel } from './config.ts';
import { maskData, maskText, stripAccessToken, type Redactor } from './redact.ts';

export type { Logger };

interface ReqLike { method?: string; url?: string; id?: unknown; ip?: string }
interface ResLike { statusCode?: number }

export function createLogger(
  opts: { level: LogLevel; redactor?: Redactor; name?: string },
  destination?: DestinationStream,
): Logger {
  const text = (s: string) => (opts.redactor ? opts.redactor.text(s) : maskText(s));
  const deep = (v: unknown) => (opts.redactor ? opts.redactor.deep(v) : maskData(v));
  return pino(
    {
      level: opts.level,
      name: opts.name ?? 'svc',
      serializers: {
        req: (req: ReqLike) => ({ method: req.method, url: stripAccessToken(req.url ?? ''), id: req.id }),
        res: (res: ResLike) => ({ statusCode: res.statusCode }),
        err: (err: Error) => ({
          type: err?.name,
          message: text(String(err?.message ?? err)),
          stack: err?.stack ? text(err.stack) : undefined,
        }),
      },
      formatters: {
        // Runs after serializers: mask whatever fields a call site passed.
        log: (obj) => deep(obj) as Record<string, unknown>,
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
