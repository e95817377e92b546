// Follows `<svcHome>/logs/gateway.log` from a byte offset. The gateway writes
// its stdout and stderr straight into that file (not into a pipe to svc), so
// it keeps running when svc exits; while a route's client listens, the new
// lines are read back from the file and streamed as `output` frames.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { cleanLines } from './proc.ts';

const TAIL_INTERVAL_MS = 200;
const MAX_READ = 256 * 1024;

export function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    // No log yet: reading starts at its beginning once it exists.
    return 0;
  }
}

export interface LogTail {
  /** Reads what is new now, then stops following. */
  stop(): void;
}

export function tailLog(file: string, fromOffset: number, onLine: (line: string) => void): LogTail {
  let offset = fromOffset;
  let partial = '';
  const readNew = () => {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      // The file is not there yet (the child has not opened it): try next tick.
      return;
    }
    try {
      const buf = Buffer.alloc(MAX_READ);
      for (;;) {
        const n = readSync(fd, buf, 0, MAX_READ, offset);
        if (n <= 0) break;
        offset += n;
        const text = partial + buf.subarray(0, n).toString('utf8');
        const cut = text.lastIndexOf('\n');
        partial = cut >= 0 ? text.slice(cut + 1) : text;
        if (cut >= 0) for (const line of cleanLines(text.slice(0, cut))) onLine(line);
      }
    } finally {
      closeSync(fd);
    }
  };
  const timer = setInterval(readNew, TAIL_INTERVAL_MS);
  return {
    stop() {
      clearInterval(timer);
      readNew();
      for (const line of cleanLines(partial)) onLine(line);
      partial = '';
    },
  };
}
