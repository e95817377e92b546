// svc's own release: the newest version on the registry (self-version) and
// the global update that installs it, followed by a restart into it through
// the launcher (self-update). The restart is a detached `svc restart
// --no-open` of the launcher that was just installed: it stops this server
// (by its port, gracefully), then starts the new build on the same port, so
// it must not be a child that dies with us. That restart is svc starting
// svc, the one child that gets svc's whole environment (config.ts
// svcSelfEnv): the new server needs the access token, vault key and every
// other setting the old one had. With SVC_UPDATE_PACKAGE unset (it has no
// default) neither self-version nor self-update looks anything up.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { z } from 'zod';
import { svcSelfEnv } from '../../shared/config.ts';
import { IS_WINDOWS, platformSpawnOptions, runBounded } from './proc.ts';
import { messageOf } from '../../shared/errors.ts';

export const REGISTRY_TIMEOUT_MS = 3000;
/** Gives the supervisor time to write the complete frame and end the stream before the launcher stops us. */
export const RESTART_DELAY_MS = 1000;

const Latest = z.object({ version: z.string().min(1).max(100) });

/** A local path, URL or a spec that already names a version is installed as written. */
export function isExplicitSpec(spec: string): boolean {
  return /^(\.|\/|~|file:|https?:|git\+|[A-Za-z]:\\)/.test(spec) || spec.lastIndexOf('@') > 0;
}

/** What self-update installs: `<package>@latest` unless the configured spec is explicit. */
export function updateSpec(pkg: string): string {
  return isExplicitSpec(pkg) ? pkg : `${pkg}@latest`;
}

/** `<registry>/<name>/latest` → its version; null on any failure or an explicit spec. */
export async function latestVersion(registry: string | null, pkg: string, timeoutMs = REGISTRY_TIMEOUT_MS): Promise<string | null> {
  if (registry === null || isExplicitSpec(pkg)) return null;
  const name = pkg.startsWith('@') ? pkg.replace('/', '%2f') : encodeURIComponent(pkg);
  try {
    const res = await fetch(`${registry}/${name}/latest`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) {
      await res.body?.cancel();
      return null;
    }
    const parsed = Latest.safeParse(await res.json());
    return parsed.success ? parsed.data.version : null;
  } catch {
    // Offline, slow or malformed: self-version degrades to latest: null (spec: no failure surfaced).
    return null;
  }
}

/** The launcher to restart with: the global one npm just wrote, else this package's build. */
async function launcherCommand(packageRoot: string): Promise<{ file: string; args: string[] } | null> {
  const prefix = await runBounded('npm', ['prefix', '-g'], { timeoutMs: 10_000, kind: 'npm' });
  const dir = prefix.exitCode === 0 ? prefix.stdout.trim() : '';
  if (dir) {
    const bin = IS_WINDOWS ? join(dir, 'svc.cmd') : join(dir, 'bin', 'svc');
    if (existsSync(bin)) return { file: bin, args: ['restart', '--no-open'] };
  }
  const bundled = join(packageRoot, 'dist', 'bin', 'svc.js');
  if (existsSync(bundled)) return { file: process.execPath, args: [bundled, 'restart', '--no-open'] };
  return null;
}

/** Spawns the restart detached; returns what was started or why not. */
export async function restartSvc(packageRoot: string, delayMs = RESTART_DELAY_MS): Promise<{ ok: boolean; detail: string }> {
  const cmd = await launcherCommand(packageRoot);
  if (!cmd) return { ok: false, detail: 'no svc launcher found to restart with' };
  await new Promise((r) => setTimeout(r, delayMs));
  try {
    const child = execa(cmd.file, cmd.args, {
      ...platformSpawnOptions,
      env: svcSelfEnv(),
      extendEnv: false,
      detached: true,
      cleanup: false,
      stdio: 'ignore',
      reject: false,
    });
    child.unref();
    return { ok: true, detail: `${cmd.file} ${cmd.args.join(' ')}` };
  } catch (err) {
    return { ok: false, detail: messageOf(err) };
  }
}
