// Native resume pointers: when a runtime can continue its own conversation
// (a native session id of the agent's CLI, say), the orchestrator records it
// per svc session key in the settings table and resumes from it on the next
// turn. A context reset clears it, so the next turn starts a new conversation.
// The orchestrator writes with set(); reset-context clears with clear().
import { z } from 'zod';
import type { SettingsTable } from '../db/settings-table.ts';
import type { Logger } from '../log.ts';

export const RESUME_KEY_PREFIX = 'chat-resume:';
export const resumeKey = (sessionKey: string) => `${RESUME_KEY_PREFIX}${sessionKey}`;

export const ResumePointerSchema = z.object({
  /** The runtime that minted the id (open set of runtime ids). */
  runtime: z.string().min(1),
  /** The runtime's own conversation / session id to resume. */
  nativeSessionId: z.string().min(1),
});
export type ResumePointer = z.infer<typeof ResumePointerSchema>;

export interface ResumePointers {
  /** The pointer, or null when none is stored or it is unreadable (then a fresh conversation is the safe choice). */
  get(sessionKey: string): ResumePointer | null;
  set(sessionKey: string, pointer: ResumePointer): void;
  /** Removes the pointer; true when one was stored. */
  clear(sessionKey: string): boolean;
}

export function createResumePointers(settings: SettingsTable, logger: Logger): ResumePointers {
  return {
    get(sessionKey) {
      const raw = settings.get(resumeKey(sessionKey));
      if (raw === null) return null;
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch (err) {
        logger.warn({ err, sessionKey }, 'resume pointer unreadable; the next turn starts a new conversation');
        return null;
      }
      const r = ResumePointerSchema.safeParse(parsed);
      if (!r.success) logger.warn({ sessionKey }, 'resume pointer malformed; the next turn starts a new conversation');
      return r.success ? r.data : null;
    },
    set(sessionKey, pointer) {
      settings.set(resumeKey(sessionKey), JSON.stringify(ResumePointerSchema.parse(pointer)));
    },
    clear(sessionKey) {
      const existed = settings.get(resumeKey(sessionKey)) !== null;
      if (existed) settings.delete(resumeKey(sessionKey));
      return existed;
    },
  };
}
