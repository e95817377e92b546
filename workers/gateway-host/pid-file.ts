// `<svcHome>/gateway.pid`: JSON `{ pid, port, startedAt }` for the gateway svc
// launched (spec "State directory"). Written atomically; a file that does not
// parse reads as absent (and is replaced by the next start).
import { readFileSync, rmSync } from 'node:fs';
import { z } from 'zod';
import { isMissingFile, writeFileAtomic } from '../../shared/fs-safe.ts';
import { isAlive } from '../../shared/launcher/stop.ts';

export const PidRecord = z.object({
  pid: z.number().int().positive(),
  port: z.number().int().min(1).max(65535),
  startedAt: z.number(),
});
export type PidRecord = z.infer<typeof PidRecord>;

export function readPidFile(file: string): PidRecord | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (isMissingFile(err)) return null;
    throw err;
  }
  try {
    const parsed = PidRecord.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    // Not JSON (a half-written file from an old version): no usable record.
    return null;
  }
}

export function writePidFile(file: string, rec: PidRecord): void {
  writeFileAtomic(file, `${JSON.stringify(rec)}\n`);
}

export function removePidFile(file: string): void {
  rmSync(file, { force: true });
}

/** The record when its process is alive; a stale file is removed. */
export function liveRecord(file: string, alive: (pid: number) => boolean = isAlive): PidRecord | null {
  const rec = readPidFile(file);
  if (rec && alive(rec.pid)) return rec;
  if (rec) removePidFile(file);
  return null;
}
