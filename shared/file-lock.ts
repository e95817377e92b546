// A lock file beside a file that several writers read-modify-write
// (settings.json, the gateway's openclaw.json and .env): svc's routes, the
// gateway-host service, a second svc process, the `svc` command. Without it
// two writers that read the same version each write back their own change
// and one of them is lost.
//
// `<file>.lock` is created with O_EXCL and holds the holder's pid and host.
// A lock whose holder is dead (same host, pid gone) is taken over; otherwise
// a writer waits a bounded time, then fails with a message that names the
// lock file. The wait is synchronous (the writers are): it only ever happens
// while another process or thread holds the lock, which is for the few
// milliseconds of one small read-modify-write.
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { z } from 'zod';
import { isAlreadyThere, isMissingFile } from './fs-safe.ts';

export const DEFAULT_LOCK_TIMEOUT_MS = 5000;
const POLL_MS = 10;
/** A lock file with no readable holder yet is being written; past this age its writer died in between. */
const UNWRITTEN_GRACE_MS = 2000;

export class FileLockTimeout extends Error {
  override name = 'FileLockTimeout';
}

export interface LockOptions {
  /** How long to wait for another holder (default 5 s). */
  timeoutMs?: number;
}

const Holder = z.object({ pid: z.number().int().positive(), host: z.string() });
type Holder = z.infer<typeof Holder>;

/** Lock paths this thread holds now: a nested edit of the same file runs inside the outer lock. */
const held = new Set<string>();

const sleepBuffer = new Int32Array(new SharedArrayBuffer(4));
/** Blocks this thread for `ms` (Atomics.wait is the one synchronous sleep Node has). */
const sleepSync = (ms: number) => void Atomics.wait(sleepBuffer, 0, 0, ms);

function readHolder(lock: string): Holder | 'missing' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(lock, 'utf8');
  } catch (err) {
    if (isMissingFile(err)) return 'missing';
    throw err;
  }
  try {
    const parsed = Holder.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : 'unreadable';
  } catch {
    // Empty or half-written: its writer is between create and write, or died there.
    return 'unreadable';
  }
}

/** Whether process `pid` on this host is running. EPERM: it runs under another user. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isStale(lock: string, holder: Holder | 'unreadable'): boolean {
  if (holder === 'unreadable') {
    try {
      return Date.now() - statSync(lock).mtimeMs > UNWRITTEN_GRACE_MS;
    } catch (err) {
      if (isMissingFile(err)) return false; // released meanwhile: the next try takes it
      throw err;
    }
  }
  // A holder on another host (a shared folder) cannot be checked from here: it is waited for.
  return holder.host === hostname() && !isAlive(holder.pid);
}

/**
 * Removes a stale lock, unless it changed hands meanwhile: the lock is first
 * renamed aside (atomic, so only one of several waiters gets it), then the
 * renamed file is checked; a live holder's lock taken by mistake is linked
 * back (link fails rather than replace a lock created in between).
 */
function breakStale(lock: string): void {
  const aside = `${lock}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(lock, aside);
  } catch (err) {
    if (isMissingFile(err)) return; // another waiter broke it first
    throw err;
  }
  const holder = readHolder(aside);
  if (holder !== 'missing' && !isStale(aside, holder)) {
    try {
      linkSync(aside, lock);
    } catch (err) {
      // A new lock was taken in the instant between: it stands, and the
      // holder of the one moved aside finishes unaware (a race of three
      // writers on a stale lock, within microseconds).
      if (!isAlreadyThere(err)) throw err;
    }
  }
  rmSync(aside, { force: true });
}

/** One try to create the lock; false when another holder has it. */
function tryCreate(lock: string): boolean {
  let fd: number;
  try {
    fd = openSync(lock, 'wx', 0o600);
  } catch (err) {
    if (isAlreadyThere(err)) return false;
    throw err;
  }
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname() }));
  } catch (err) {
    closeSync(fd);
    rmSync(lock, { force: true }); // a lock with no holder in it would stall others for the grace time
    throw err;
  }
  closeSync(fd);
  return true;
}

function acquire(file: string, lock: string, timeoutMs: number): void {
  mkdirSync(dirname(lock), { recursive: true, mode: 0o700 });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (tryCreate(lock)) return;
    const holder = readHolder(lock);
    if (holder === 'missing') continue; // released between the two calls
    if (isStale(lock, holder)) {
      breakStale(lock);
      continue;
    }
    if (Date.now() >= deadline) {
      const who = holder === 'unreadable' ? 'a writer that is starting' : `pid ${holder.pid} on ${holder.host}`;
      throw new FileLockTimeout(
        `${file} is being changed by another writer (${who}); gave up after ${timeoutMs} ms. ` +
          `Try again; if no svc process is running, remove ${lock}`,
      );
    }
    sleepSync(POLL_MS);
  }
}

/** Runs `fn` (a read-modify-write of `file`) while holding `<file>.lock`. */
export function withFileLock<T>(file: string, fn: () => T, opts: LockOptions = {}): T {
  const lock = `${file}.lock`;
  if (held.has(lock)) return fn();
  acquire(file, lock, opts.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS);
  held.add(lock);
  try {
    return fn();
  } finally {
    held.delete(lock);
    rmSync(lock, { force: true });
  }
}
