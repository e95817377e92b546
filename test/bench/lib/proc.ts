// CPU time and resident memory of a process, read from /proc (Linux). The
// figures of /proc/<pid>/stat cover every thread of the process, so the
// supervisor's worker threads count too.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { sleep } from './stats.ts';

let clockTicks: number | null = null;

/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat. */
export function clkTck(): number {
  if (clockTicks === null) {
    const out = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    clockTicks = Number.isFinite(out) && out > 0 ? out : 100;
  }
  return clockTicks;
}

/** User plus system CPU seconds the process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3 (state).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / clkTck();
}

/** Resident set size in KB (VmRSS). */
export function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!m) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]);
}

/** Median RSS over a few samples, to smooth out a GC in progress. */
export async function settledRssKb(pid: number, samples = 5, everyMs = 200): Promise<number> {
  const values: number[] = [];
  for (let i = 0; i < samples; i++) {
    if (i > 0) await sleep(everyMs);
    values.push(rssKb(pid));
  }
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)] as number;
}

export interface CpuWindow {
  /** Ends the window: CPU % of one core over it, the wall time and the RSS samples taken. */
  stop(): { cpuPercent: number; wallMs: number; rssKb: number[] };
}

/** Starts measuring one process: CPU over the window and RSS every `rssEveryMs`. */
export function measure(pid: number, rssEveryMs = 500): CpuWindow {
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  const rss: number[] = [];
  const timer = setInterval(() => rss.push(rssKb(pid)), rssEveryMs);
  return {
    stop() {
      clearInterval(timer);
      const wallMs = performance.now() - t0;
      const cpu = cpuSeconds(pid) - cpu0;
      return { cpuPercent: (cpu / (wallMs / 1000)) * 100, wallMs, rssKb: rss };
    },
  };
}
