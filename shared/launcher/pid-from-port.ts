// Which process owns the listening socket on a port? `svc stop` must signal
// the server that holds the port, never a PID from a file that may be stale.
// Linux: /proc/net/tcp{,6} gives the LISTEN socket's inode, /proc/<pid>/fd
// links name it. Elsewhere (or when /proc hides it): lsof. Windows: netstat.
import { spawnSync } from 'node:child_process';
import { childEnv } from '../config.ts';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

export type PidLookup =
  | { kind: 'found'; pids: number[]; method: 'proc' | 'lsof' | 'netstat' }
  | { kind: 'not-found' }
  | { kind: 'no-tool'; reason: string };

const TCP_LISTEN = '0A';

/** Inodes of LISTEN sockets on `port` in the text of /proc/net/tcp or tcp6. */
export function parseProcNetTcp(text: string, port: number): string[] {
  const inodes: string[] = [];
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    const local = f[1];
    const inode = f[9];
    if (!local || !inode || f[3] !== TCP_LISTEN) continue;
    const hexPort = local.slice(local.lastIndexOf(':') + 1);
    if (parseInt(hexPort, 16) === port && inode !== '0') inodes.push(inode);
  }
  return inodes;
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    // No IPv6 (tcp6 absent) or no /proc: that table simply lists nothing.
    return '';
  }
}

function listOrEmpty(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    // The process exited meanwhile, or belongs to another user: skip it.
    return [];
  }
}

/** PIDs whose open fds include one of the socket inodes. */
export function pidsHoldingInodes(inodes: string[], procRoot = '/proc'): number[] {
  if (inodes.length === 0) return [];
  const wanted = new Set(inodes.map((i) => `socket:[${i}]`));
  const pids: number[] = [];
  for (const entry of listOrEmpty(procRoot)) {
    if (!/^\d+$/.test(entry)) continue;
    const fdDir = join(procRoot, entry, 'fd');
    const holds = listOrEmpty(fdDir).some((fd) => {
      try {
        return wanted.has(readlinkSync(join(fdDir, fd)));
      } catch {
        // The fd closed between listing and reading: it is not our socket.
        return false;
      }
    });
    if (holds) pids.push(Number(entry));
  }
  return pids;
}

/** The LISTEN socket inodes on `port` and the PIDs holding them, from /proc. */
export function procLookup(port: number, procRoot = '/proc'): { inodes: string[]; pids: number[] } {
  const inodes = [
    ...parseProcNetTcp(readOrEmpty(join(procRoot, 'net', 'tcp')), port),
    ...parseProcNetTcp(readOrEmpty(join(procRoot, 'net', 'tcp6')), port),
  ];
  return { inodes, pids: pidsHoldingInodes(inodes, procRoot) };
}

/** `lsof -t` prints one PID per line. */
export function parseLsofPids(text: string): number[] {
  const pids = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => /^\d+$/.test(l)).map(Number);
  return [...new Set(pids)];
}

/** PIDs listening on `port` in `netstat -ano` output (the state word is localised, so a `:0` peer marks a listener). */
export function parseNetstatPids(text: string, port: number): number[] {
  const pids = new Set<number>();
  for (const line of text.split(/\r?\n/)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 5 || !/^TCP/i.test(f[0] as string)) continue;
    const [, local = '', foreign = '', state = '', pid = ''] = f;
    const listening = state.toUpperCase() === 'LISTENING' || /:0$/.test(foreign);
    if (listening && local.endsWith(`:${port}`) && /^\d+$/.test(pid) && pid !== '0') pids.add(Number(pid));
  }
  return [...pids];
}

function runTool(cmd: string, args: string[]): { ok: true; stdout: string } | { ok: false; reason: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 5000, windowsHide: true, env: childEnv() });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ENOENT' ? `${cmd} is not installed` : `${cmd} failed: ${r.error.message}` };
  }
  return { ok: true, stdout: r.stdout ?? '' };
}

export function pidFromPort(port: number, platform: NodeJS.Platform = process.platform): PidLookup {
  if (platform === 'win32') {
    const r = runTool('netstat', ['-ano', '-p', 'TCP']);
    if (!r.ok) return { kind: 'no-tool', reason: r.reason };
    const pids = parseNetstatPids(r.stdout, port);
    return pids.length > 0 ? { kind: 'found', pids, method: 'netstat' } : { kind: 'not-found' };
  }
  let hiddenOwner = false;
  if (platform === 'linux') {
    const { inodes, pids } = procLookup(port);
    if (pids.length > 0) return { kind: 'found', pids, method: 'proc' };
    hiddenOwner = inodes.length > 0;
  }
  // Not Linux, or /proc could not see the owner (another user's process).
  const r = runTool('lsof', ['-nP', `-iTCP:${port}`, '-sTCP:LISTEN', '-t']);
  if (!r.ok) {
    if (platform !== 'linux') return { kind: 'no-tool', reason: r.reason };
    if (!hiddenOwner) return { kind: 'not-found' };
    return { kind: 'no-tool', reason: `the owner of port ${port} is not visible in /proc (another user?) and ${r.reason}` };
  }
  const pids = parseLsofPids(r.stdout);
  return pids.length > 0 ? { kind: 'found', pids, method: 'lsof' } : { kind: 'not-found' };
}

/** What a user can run by hand when the launcher cannot or will not stop the server. */
export function manualStopCommand(port: number, pids: number[] | null, platform: NodeJS.Platform = process.platform): string {
  if (pids && pids.length > 0) {
    return platform === 'win32' ? `taskkill /PID ${pids.join(' /PID ')} /F` : `kill ${pids.join(' ')}`;
  }
  if (platform === 'win32') return `netstat -ano | findstr :${port}   (then: taskkill /PID <pid> /F)`;
  if (platform === 'darwin') return `kill $(lsof -nP -iTCP:${port} -sTCP:LISTEN -t)`;
  return `fuser -k ${port}/tcp`;
}
