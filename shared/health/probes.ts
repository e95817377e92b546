// Network probes used by health checks: loopback-friendly, bounded in time.
import { connect } from 'node:net';

export function tcpReachable(host: string, port: number, timeoutMs = 1500): Promise<{ ok: boolean; error?: string }> {
  return new Promise((resolve) => {
    const sock = connect({ host, port });
    const done = (r: { ok: boolean; error?: string }) => {
      sock.destroy();
      resolve(r);
    };
    sock.setTimeout(timeoutMs, () => done({ ok: false, error: `timed out after ${timeoutMs} ms` }));
    sock.once('connect', () => done({ ok: true }));
    sock.once('error', (err: NodeJS.ErrnoException) => done({ ok: false, error: err.code ?? err.message }));
  });
}

/** Any HTTP answer (even 404 or 405) means the collector is there. */
export async function httpReachable(url: string, timeoutMs = 1500): Promise<{ ok: boolean; status?: number; error?: string }> {
  try {
    const res = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return { ok: true, status: res.status };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    return { ok: false, error: cause?.code ?? (err as Error).name };
  }
}

/** host and port of a ws:// or wss:// URL (default ports 80/443). */
export function wsHostPort(url: string): { host: string; port: number } | null {
  try {
    const u = new URL(url);
    if (u.protocol !== 'ws:' && u.protocol !== 'wss:') return null;
    const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = u.port ? Number(u.port) : u.protocol === 'wss:' ? 443 : 80;
    return { host, port };
  } catch {
    // Not a URL at all: the caller reports the check as failed.
    return null;
  }
}
