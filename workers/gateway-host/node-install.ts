// Issue 30 #6: the Node svc installs for the gateway. npm's platform package
// of Node 24 (shared/gateway/managed-node.ts) goes into
// `$SVC_HOME/runtime/node24` with `npm install --prefix`, nothing global, with
// the same frames as install-gateway. A fitting Node already there completes
// at once: a reinstall would replace the package folder, and with it a
// gateway CLI that npm put into that Node's own global folder (npm's default
// global prefix follows the node that runs it). npm's E404/ETARGET/
// EBADPLATFORM mean there is no Node 24 for this machine: NO_NODE_PACKAGE.
import { mkdirSync } from 'node:fs';
import { managedNodeBinary, managedNodeDir, managedNodeSpec, noNodePackageMessage } from '../../shared/gateway/managed-node.ts';
import type { OpEmitter } from './lifecycle.ts';
import { runNpm } from './install.ts';
import { satisfiesNodeRange } from './node-range.ts';
import { runBounded } from './proc.ts';

const NO_PACKAGE_RE = /\bE404\b|\bETARGET\b|\bEBADPLATFORM\b|No matching version found/i;
const VERSION_RE = /v?(\d+\.\d+\.\d+)/;

export interface NodeInstallOptions {
  svcHome: string;
  emit: OpEmitter;
  signal: AbortSignal;
  /** The range the gateway needs (the installed CLI's engines.node, else the known default). */
  requirement: () => string;
  /** The managed Node changed: detection caches are stale. */
  installed: () => void;
  timeoutMs?: number;
}

/** `node --version` of `binary` as `v24.21.0`, or null when it does not run. */
async function versionOf(binary: string): Promise<string | null> {
  const r = await runBounded(binary, ['--version'], { timeoutMs: 6000, kind: 'system' });
  const v = r.exitCode === 0 ? VERSION_RE.exec(r.stdout)?.[1] : undefined;
  return v ? `v${v}` : null;
}

export async function installManagedNode(opts: NodeInstallOptions): Promise<void> {
  const { emit, svcHome } = opts;
  const spec = managedNodeSpec();
  if (spec === null) return emit.error('NO_NODE_PACKAGE', noNodePackageMessage());
  const present = managedNodeBinary(svcHome);
  const presentVersion = present ? await versionOf(present) : null;
  if (presentVersion && satisfiesNodeRange(presentVersion, opts.requirement()) === true) {
    return emit.complete({ version: presentVersion, message: `Node ${presentVersion} for the gateway is already installed` });
  }
  const dir = managedNodeDir(svcHome);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  emit.progress('installing', `Installing ${spec} into ${dir}...`);
  let noPackage = false;
  const ok = await runNpm({
    args: ['install', '--prefix', dir, '--no-audit', '--no-fund', spec],
    emit,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
    permissionMessage: null,
    onLine: (line) => {
      if (NO_PACKAGE_RE.test(line)) noPackage = true;
    },
    failure: () => (noPackage ? { code: 'NO_NODE_PACKAGE', message: noNodePackageMessage() } : null),
  });
  if (!ok) return;
  opts.installed();
  const binary = managedNodeBinary(svcHome);
  const version = binary ? await versionOf(binary) : null;
  if (!version) return emit.error('INSTALL_INCOMPLETE', `npm finished, but no working node is in ${dir}`);
  const requirement = opts.requirement();
  if (satisfiesNodeRange(version, requirement) === false) {
    return emit.error('NODE_TOO_OLD', `npm installed Node ${version}, which does not meet the gateway's requirement (${requirement})`);
  }
  emit.complete({ version });
}
