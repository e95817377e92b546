// Port selection (spec "Port range", launcher "Port discovery"):
// SVC_API_PORT when valid (only that port is tried), else the first free
// port of 18790-18809. `svc restart` sets SVC_AWAIT_PORT: wait for the
// pinned port to free, and if it stays busy start unpinned instead.
import type { Server } from 'node:http';
import type { Config } from '../../shared/config.ts';
import type { Logger } from '../../shared/log.ts';

export const DEFAULT_PORT = 18790;
export const PORT_SCAN_COUNT = 20;
export const AWAIT_PORT_MS = 10_000;

export class BindError extends Error {
  override name = 'BindError';
}

function listenOnce(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

const inUse = (err: unknown) => (err as NodeJS.ErrnoException).code === 'EADDRINUSE';

async function listenWithin(server: Server, port: number, host: string, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await listenOnce(server, port, host);
      return true;
    } catch (err) {
      if (!inUse(err)) throw err;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

export async function bindServer(server: Server, config: Pick<Config, 'apiPort' | 'awaitPort' | 'host'>, logger: Logger): Promise<number> {
  const { host } = config;
  if (config.apiPort !== null) {
    const ok = await listenWithin(server, config.apiPort, host, config.awaitPort ? AWAIT_PORT_MS : 0);
    if (ok) return config.apiPort;
    if (!config.awaitPort) throw new BindError(`port ${config.apiPort} (SVC_API_PORT) is already in use`);
    logger.warn({ port: config.apiPort }, 'pinned port did not free; starting on another port');
  }
  for (let port = DEFAULT_PORT; port < DEFAULT_PORT + PORT_SCAN_COUNT; port++) {
    try {
      await listenOnce(server, port, host);
      return port;
    } catch (err) {
      if (!inUse(err)) throw err;
    }
  }
  throw new BindError(`no free port in ${DEFAULT_PORT}-${DEFAULT_PORT + PORT_SCAN_COUNT - 1}`);
}
