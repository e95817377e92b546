// What `svc` starts when no dashboard runs: the bundled build
// (`<packageRoot>/dist/supervisor/main.js`), else a development server —
// SVC_SERVER_PATH when set, else a repository root found above the package.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { z } from 'zod';
import { svcSelfEnv, type Config } from '../config.ts';
import { SERVER_NODE_FLAGS } from './node-flags.ts';

export interface ServerEntry {
  kind: 'bundled' | 'development';
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The file that runs, for messages. */
  entry: string;
}

export type EntryResolution = { ok: true; entry: ServerEntry } | { ok: false; problem: string };

const PackageName = z.object({ name: z.string() });
const MAX_WALK = 8;

function packageNameAt(dir: string): string | null {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return null;
  try {
    const parsed = PackageName.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data.name : null;
  } catch {
    // An unreadable package.json is not the repository we are looking for.
    return null;
  }
}

/** The first folder at or above `start` with an `svc` package.json and `supervisor/main.ts`. */
export function findRepositoryRoot(start: string): string | null {
  let dir = start;
  for (let i = 0; i < MAX_WALK; i++) {
    if (packageNameAt(dir) === 'svc' && existsSync(join(dir, 'supervisor', 'main.ts'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

/** The nearest folder with a package.json at or above `start` (where tsx resolves from). */
function nearestPackageDir(start: string): string {
  let dir = start;
  for (let i = 0; i < MAX_WALK; i++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return start;
}

function nodeArgsFor(file: string): string[] {
  const ext = extname(file);
  // TypeScript sources run through tsx; built JavaScript runs on plain node.
  return ext === '.ts' || ext === '.mts' || ext === '.cts' ? ['--import', 'tsx', file] : [file];
}

function development(file: string, cwd: string, env: Record<string, string>): ServerEntry {
  return { kind: 'development', command: process.execPath, args: nodeArgsFor(file), cwd, env: svcSelfEnv(env), entry: file };
}

export function resolveServerEntry(
  config: Pick<Config, 'packageRoot' | 'version' | 'mcpBinDir' | 'serverPath' | 'svcHome'>,
  extra: Record<string, string> = {},
): EntryResolution {
  // The server must use the state directory the launcher discovers through
  // (its api-port.txt), even when the launcher's config did not come from
  // this process's environment.
  const extraEnv = { SVC_HOME: config.svcHome, ...extra };
  const bundled = join(config.packageRoot, 'dist', 'supervisor', 'main.js');
  if (existsSync(bundled)) {
    // svc starting svc: the server needs every setting the launcher has (config.ts svcSelfEnv).
    const env = svcSelfEnv({ NODE_ENV: 'production', SVC_VERSION: config.version, SVC_MCP_BIN_DIR: config.mcpBinDir, ...extraEnv });
    return { ok: true, entry: { kind: 'bundled', command: process.execPath, args: [...SERVER_NODE_FLAGS, bundled], cwd: config.packageRoot, env, entry: bundled } };
  }
  if (config.serverPath !== null) {
    const p = config.serverPath;
    if (!existsSync(p)) return { ok: false, problem: `SVC_SERVER_PATH points at ${p}, which does not exist` };
    if (statSync(p).isDirectory()) {
      const main = join(p, 'supervisor', 'main.ts');
      if (!existsSync(main)) return { ok: false, problem: `SVC_SERVER_PATH folder ${p} has no supervisor/main.ts` };
      return { ok: true, entry: development(main, p, extraEnv) };
    }
    return { ok: true, entry: development(p, nearestPackageDir(dirname(p)), extraEnv) };
  }
  const root = findRepositoryRoot(config.packageRoot);
  if (root) return { ok: true, entry: development(join(root, 'supervisor', 'main.ts'), root, extraEnv) };
  return { ok: false, problem: `no server build at ${bundled} and no svc repository found` };
}
