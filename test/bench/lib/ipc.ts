// Request/reply over a forked child's IPC channel, with a deadline.
import type { ChildProcess } from 'node:child_process';

export function nextMessage<T extends { type: string }>(child: ChildProcess, type: string, timeoutMs = 30_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (msg: { type?: string; message?: string }) => {
      if (msg.type === type) {
        done();
        resolve(msg as T);
      } else if (msg.type === 'error') {
        done();
        reject(new Error(`child ${child.pid}: ${msg.message ?? 'error'}`));
      }
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`child ${child.pid} exited (${code}) while waiting for '${type}'`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`child ${child.pid}: no '${type}' within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export function ask<T extends { type: string }>(
  child: ChildProcess,
  msg: { type: string; [k: string]: unknown },
  replyType: string,
  timeoutMs = 30_000,
): Promise<T> {
  const reply = nextMessage<T>(child, replyType, timeoutMs);
  child.send(msg);
  return reply;
}
