// Port discovery, shared by every command (spec "Command-line launcher"):
// SVC_API_PORT when valid (only that port is probed); else the port named in
// `<svcHome>/api-port.txt`; else 18790-18809. A port file whose port holds no
// dashboard (a crash left it behind) falls through to the scan.
//
// The access token (issue 15 #9): probes carry none. Only when a probe found
// a gated svc on the port svc itself recorded in api-port.txt (a file in
// svc's private home) does the launcher present the token, as a bearer, to
// that port; a port found by the scan, or named by SVC_API_PORT alone, never
// gets it. A dashboard the token opened is `running` and `authorized`.
import { readFileSync } from 'node:fs';
import { parsePort } from '../config.ts';
import { DEFAULT_PORT, PORT_SCAN_COUNT } from './constants.ts';
import type { LauncherContext } from './io.ts';
import { authorizeDashboard, probeDashboard, type ProbeResult } from './probe.ts';
import { messageOf } from '../errors.ts';

export type Discovery =
  | { state: 'running'; port: number; authorized?: true }
  | { state: 'gated'; port: number }
  | { state: 'none' };

/** The port in a port file's text: a single line holding a valid port, else null. */
export function parsePortFile(text: string): number | null {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  return lines.length === 1 ? parsePort(lines[0]) : null;
}

/** Reads the port file; a missing or unreadable file means "no port recorded". */
export function readPortFile(file: string, warn: (line: string) => void = () => undefined): number | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    // Missing is the normal "nothing recorded" case; anything else (a
    // directory in the way, permissions) is treated the same, so discovery
    // falls back to scanning rather than failing the command.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') warn(`svc: cannot read ${file}: ${messageOf(err)}`);
    return null;
  }
  return parsePortFile(text);
}

export function scanPorts(): number[] {
  return Array.from({ length: PORT_SCAN_COUNT }, (_, i) => DEFAULT_PORT + i);
}

export type Prober = (port: number) => Promise<ProbeResult>;
export type Authorizer = (port: number, token: string) => Promise<boolean>;

function verdict(port: number, result: ProbeResult): Discovery | null {
  if (result === 'svc') return { state: 'running', port };
  if (result === 'gated') return { state: 'gated', port };
  return null;
}

/** Probes ports in parallel; an open dashboard wins over a gated one, then the lowest port. */
async function firstOf(ports: number[], probe: Prober): Promise<Discovery> {
  const results = await Promise.all(ports.map(async (p) => verdict(p, await probe(p))));
  const found = results.filter((r): r is Exclude<Discovery, { state: 'none' }> => r !== null);
  return found.find((r) => r.state === 'running') ?? found[0] ?? { state: 'none' };
}

/**
 * A gated svc on the port api-port.txt names (read now) is asked again with
 * the token; any other finding is returned as it is, and no token is sent.
 */
export async function withToken(ctx: LauncherContext, found: Discovery, authorize: Authorizer = authorizeDashboard): Promise<Discovery> {
  if (found.state !== 'gated' || !ctx.accessToken) return found;
  // Read again, silently: discovery already reported an unreadable file.
  if (readPortFile(ctx.paths.apiPortFile) !== found.port) return found;
  return (await authorize(found.port, ctx.accessToken)) ? { state: 'running', port: found.port, authorized: true } : found;
}

export async function discoverDashboard(ctx: LauncherContext, probe: Prober = probeDashboard, authorize?: Authorizer): Promise<Discovery> {
  if (ctx.config.apiPort !== null) return withToken(ctx, await firstOf([ctx.config.apiPort], probe), authorize);
  const recorded = readPortFile(ctx.paths.apiPortFile, ctx.io.err);
  if (recorded !== null) {
    const found = await firstOf([recorded], probe);
    if (found.state !== 'none') return withToken(ctx, found, authorize);
  }
  return withToken(ctx, await firstOf(scanPorts().filter((p) => p !== recorded), probe), authorize);
}
