// `<svcHome>/gateway.pid`: JSON `{ pid, port, startedAt, procStart, cmdline }`
// for the gateway svc launched (spec "State directory"; the last two are
// issue 15 #16). A pid alone is not an identity: once the gateway is gone the
// OS hands its pid to any process, so a record is trusted only while the
// process under that pid still has the start time and command line svc
// recorded. A file that does not parse, an older file without them, and a
// record no process matches are all stale: dropped, never signalled.
import { readFileSync, rmSync } from 'node:fs';
import { z } from 'zod';
import { isMissingFile, writeFileAtomic } from '../../shared/fs-safe.ts';
import { processIdentity, type ProcIdentity } from './proc-identity.ts';

export const PidRecord = z.object({
  pid: z.number().int().positive(),
  port: z.number().int().min(1).max(65535),
  startedAt: z.number(),
  /** The process's start time as the OS reported it when svc started it. */
  procStart: z.string().min(1),
  /** Its command line as the OS reported it (after the gateway renamed itself, once ready). */
  cmdline: z.string().min(1),
});
export type PidRecord = z.infer<typeof PidRecord>;

/** The record, 'stale' for a file that is there but unusable, null for no file. */
export function readPidFile(file: string): PidRecord | 'stale' | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (isMissingFile(err)) return null;
    throw err;
  }
  try {
    const parsed = PidRecord.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : 'stale';
  } catch {
    // Not JSON (a half-written file from an old version): no usable record.
    return 'stale';
  }
}

export function writePidFile(file: string, rec: PidRecord): void {
  writeFileAtomic(file, `${JSON.stringify(rec)}\n`);
}

export function removePidFile(file: string): void {
  rmSync(file, { force: true });
}

/** The process under `rec.pid` is the one svc recorded: same start time, same command line. */
export function matchesProcess(rec: PidRecord, identify: (pid: number) => ProcIdentity | null = processIdentity): boolean {
  const now = identify(rec.pid);
  return now !== null && now.start === rec.procStart && now.cmdline === rec.cmdline;
}

/**
 * The record when it is trusted (`trust`, by default matchesProcess); a
 * stale or untrusted file is removed, so nothing acts on it later.
 */
export function trustedRecord(file: string, trust: (rec: PidRecord) => boolean = (r) => matchesProcess(r)): PidRecord | null {
  const rec = readPidFile(file);
  if (rec === null) return null;
  if (rec !== 'stale' && trust(rec)) return rec;
  removePidFile(file);
  return null;
}
