// A team's preamble parts read while it is idle (issue 32 #7): the user
// message that comes next is sent with them and the rows it has just written,
// instead of reading every section again on its send path. Any commit since
// they were read, by any connection or thread (db-version.ts), makes them
// stale: that message reads afresh, as every other delivery does.
import type { TeamChatContext } from '../context.ts';
import { readPreambleParts, type PreambleParts } from './preamble.ts';

export interface IdlePreamble {
  /** The parts when nothing was committed since they were read, else null; either way they are used up. */
  take(): PreambleParts | null;
  /** Reads the parts once the current work is done (a later tick), unless `stillIdle` says otherwise by then. */
  warm(stillIdle: () => boolean): void;
}

export function createIdlePreamble(ctx: TeamChatContext, teamId: string): IdlePreamble {
  let kept: { version: number; parts: PreambleParts } | null = null;
  let scheduled = false;
  return {
    take() {
      const k = kept;
      kept = null;
      return k && k.version === ctx.dbVersion() ? k.parts : null;
    },
    warm(stillIdle) {
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        if (ctx.closed() || !stillIdle()) return;
        try {
          // The version first: a commit while the parts are read makes them stale, never wrongly fresh.
          const version = ctx.dbVersion();
          kept = { version, parts: readPreambleParts(ctx.domain, teamId) };
        } catch (err) {
          // Nothing is lost: the next message reads its parts itself.
          kept = null;
          ctx.logger.warn({ err, teamId }, 'team chat: could not read the idle preamble');
        }
      });
    },
  };
}
