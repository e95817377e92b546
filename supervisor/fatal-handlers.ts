// What svc does with an exception nothing caught, or a promise rejection
// nothing handled: log it (stack included, through the redacting logger, and
// a one-line redacted note on stderr) and exit with code 1. After either, the
// process is in a state no code path planned for (a half-done write, a lock
// or a stream left open, a timer that will never fire), so carrying on could
// answer wrongly for hours; the launcher or the service manager starts a
// fresh one. SQLite in WAL mode keeps every committed transaction through
// such an exit, and a stale api-port.txt is handled as after a kill -9.
//
// Unhandled rejections are treated the same: Node itself exits on one by
// default (--unhandled-rejections=throw); svc only adds the log line.
import type { Logger } from '../shared/log.ts';
import type { Redactor } from '../shared/redact.ts';
import { messageOf } from '../shared/errors.ts';

export type FatalKind = 'uncaught exception' | 'unhandled rejection';

export interface FatalDeps {
  logger: Logger;
  redactor: Redactor;
  /** process.exit, unless a test passes its own. */
  exit?: (code: number) => void;
  /** Where the one-line note goes (stderr by default). */
  note?: (line: string) => void;
}

/** The handler for one kind: logs the error, then exits 1 whatever happens while logging. */
export function fatalHandler(kind: FatalKind, deps: FatalDeps): (err: unknown) => void {
  const exit = deps.exit ?? ((code: number) => process.exit(code));
  const note = deps.note ?? ((line: string) => void process.stderr.write(`${line}\n`));
  let exiting = false;
  return (err) => {
    if (exiting) return;
    exiting = true;
    try {
      deps.logger.fatal({ err }, `${kind}: exiting so that svc is restarted in a known state`);
      const message = messageOf(err);
      note(`svc: ${kind}, exiting: ${deps.redactor.text(message)}`);
    } finally {
      exit(1);
    }
  };
}

/** Installs both handlers on this process. */
export function installFatalHandlers(deps: FatalDeps): void {
  process.on('uncaughtException', fatalHandler('uncaught exception', deps));
  process.on('unhandledRejection', fatalHandler('unhandled rejection', deps));
}
