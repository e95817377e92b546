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

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and `localhost`: hosts whose traffic never leaves this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice('::ffff:'.length) : h;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4) || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(h);
}

/**
 * The host and port of a `ws://` URL whose host is not loopback (cleartext
 * over a network: the gateway token travels in the connect frame); null for
 * wss://, a loopback ws:// URL, or anything that is not a ws URL.
 */
export function cleartextRemoteWs(url: string): { host: string; port: number } | null {
  if (!/^ws:/i.test(url.trim())) return null;
  const hp = wsHostPort(url.trim());
  return hp && !isLoopbackHost(hp.host) ? hp : null;
}
