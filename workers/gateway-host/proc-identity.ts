// Who a process is, beyond its pid (issue 15 #16): its start time as the OS
// reports it and its command line. A pid is reused once its process is gone;
// the pair is not, so gateway.pid records both and svc signals a pid only
// while both still match. Linux reads /proc (field 22 of /proc/<pid>/stat,
// clock ticks since boot; /proc/<pid>/cmdline); other POSIX systems ask
// `ps`; Windows asks CIM through PowerShell. null: no such process, or the
// OS would not say (then nothing is trusted).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { childEnv } from '../../shared/config.ts';

export interface ProcIdentity {
  /** The start time exactly as the OS reports it (compared as text). */
  start: string;
  /** The command line, arguments joined by single spaces. */
  cmdline: string;
}

const QUERY_TIMEOUT_MS = 5000;

/** `/proc/<pid>/stat` field 22. The command name (field 2) may hold spaces and parentheses: fields are counted after its last `)`. */
export function startTimeFromStat(stat: string): string | null {
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  // Field 3 (state) is the first after the name, so field 22 is index 19.
  const start = stat.slice(close + 1).trim().split(/\s+/)[19];
  return start && /^\d+$/.test(start) ? start : null;
}

/** NUL-separated arguments, as /proc writes them; a process that renamed itself leaves trailing NULs. */
export function cmdlineFromProc(raw: string): string {
  return raw.split('\0').filter((a) => a !== '').join(' ').trim();
}

function linuxIdentity(pid: number): ProcIdentity | null {
  try {
    const start = startTimeFromStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    if (start === null) return null;
    const cmdline = cmdlineFromProc(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    // A zombie (exited, not yet reaped) has an empty command line: not a live process.
    return cmdline === '' ? null : { start, cmdline };
  } catch {
    // ENOENT: no such process (or it ended between the two reads); nothing to trust.
    return null;
  }
}

function run(file: string, args: string[]): string | null {
  const r = spawnSync(file, args, { encoding: 'utf8', timeout: QUERY_TIMEOUT_MS, windowsHide: true, env: childEnv() });
  return r.status === 0 ? r.stdout.trim() : null;
}

function psIdentity(pid: number): ProcIdentity | null {
  const start = run('ps', ['-o', 'lstart=', '-p', String(pid)]);
  const cmdline = run('ps', ['-o', 'command=', '-p', String(pid)]);
  return start && cmdline ? { start, cmdline } : null;
}

function windowsIdentity(pid: number): ProcIdentity | null {
  const script =
    `$p = Get-CimInstance Win32_Process -Filter 'ProcessId=${pid}'; ` +
    "if ($p) { $p.CreationDate.ToUniversalTime().ToString('o'); $p.CommandLine }";
  const out = run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', script]);
  if (!out) return null;
  const [start, ...rest] = out.split(/\r?\n/);
  const cmdline = rest.join(' ').trim();
  return start && cmdline ? { start: start.trim(), cmdline } : null;
}

export function processIdentity(pid: number): ProcIdentity | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  if (process.platform === 'linux') return linuxIdentity(pid);
  if (process.platform === 'win32') return windowsIdentity(pid);
  return psIdentity(pid);
}
