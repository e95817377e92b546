// Helpers for the dashboard's setup and gateway browser tests (issue 18,
// brief A): canned SSE bodies for Playwright's page.route, a proxied
// gateway connect that carries an Origin (how svc's device comes to ask the
// gateway for pairing), and svc started for a real first run: a fresh state
// directory, Node 24 first on PATH, and npm's global prefix a folder of the
// test so install-gateway really installs the pinned openclaw there.
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import WebSocket from 'ws';
import { ensureGatewayInstalled, gatewayEnv, OPENCLAW_VERSION, type GatewayInstall } from './real-gateway.ts';

/** A text/event-stream body as svc's POST streams write it: `data: <json>` and a blank line per frame. */
export function sseBody(frames: readonly unknown[]): string {
  return frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('');
}

/** Answers every POST to `path` with these frames (one body per call, in order; the last repeats); returns the call count. */
export async function cannedStream(page: Page, path: string, ...bodies: ReadonlyArray<readonly unknown[]>): Promise<() => number> {
  let calls = 0;
  await page.route(`**${path}`, async (route: Route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    const frames = bodies[Math.min(calls, bodies.length - 1)] ?? [];
    calls += 1;
    await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, body: sseBody(frames) });
  });
  return () => calls;
}

export type ProxyConnect = { ok: true } | { ok: false; code: string };

/**
 * A connect through svc's proxy (/api/gateway/ws) as a browser sends one: its
 * client fields, an Origin, no token. Unpaired, the gateway refuses it with
 * NOT_PAIRED and svc's device then has a pending pairing request.
 */
export async function proxyConnect(svcBase: string): Promise<ProxyConnect> {
  const url = `${svcBase.replace(/^http/, 'ws')}/api/gateway/ws`;
  const ws = new WebSocket(url, { headers: { origin: svcBase }, perMessageDeflate: false });
  try {
    return await new Promise<ProxyConnect>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer to the proxied connect in 30 s')), 30_000);
      ws.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      ws.once('open', () =>
        ws.send(
          JSON.stringify({
            type: 'req',
            id: 'pair-probe',
            method: 'connect',
            params: {
              minProtocol: 4,
              maxProtocol: 4,
              client: { id: 'gateway-client', version: '0.3.1', platform: 'linux', mode: 'backend' },
              role: 'operator',
              scopes: ['operator.read'],
            },
          }),
        ),
      );
      ws.on('message', (d: Buffer) => {
        const f = JSON.parse(d.toString()) as { type?: string; id?: string; ok?: boolean; error?: { code?: unknown } };
        if (f.type !== 'res' || f.id !== 'pair-probe') return;
        clearTimeout(timer);
        resolve(f.ok === true ? { ok: true } : { ok: false, code: String(f.error?.code) });
      });
    });
  } finally {
    ws.close();
  }
}

export interface FirstRunEnv {
  install: GatewayInstall;
  /** svc's environment: the gateway state under `home`, Node 24 first, npm's global prefix in `home`. */
  env: Record<string, string>;
  stateDir: string;
  npmPrefix: string;
}

/** The environment for svc on a fresh machine whose npm installs into `home/npm-global` (no openclaw on PATH yet). */
export async function firstRunEnv(home: string): Promise<FirstRunEnv> {
  const install = await ensureGatewayInstalled();
  const stateDir = join(home, 'gateway-state');
  const npmPrefix = join(home, 'npm-global');
  const env = gatewayEnv(install, stateDir);
  mkdirSync(env.HOME as string, { recursive: true });
  // Not install.openclawBin: the CLI svc finds is the one the page installs.
  env.PATH = [install.nodeBin, join(npmPrefix, 'bin'), process.env.PATH ?? ''].join(delimiter);
  return {
    install,
    stateDir,
    npmPrefix,
    env: {
      ...env,
      SVC_GATEWAY_PACKAGE: `openclaw@${OPENCLAW_VERSION}`,
      npm_config_prefix: npmPrefix,
      // The cache ensureGatewayInstalled filled (HOME above is the gateway's private one): the install reads from it first.
      npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'),
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      SVC_UPDATE_REGISTRY: 'off',
    },
  };
}
