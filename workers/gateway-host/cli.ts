// Detection of the gateway CLI and of the node that runs it. The CLI is a
// `#!/usr/bin/env node` script, so the node that matters is the first one on
// PATH, not the one running svc. `--version` answers in about 0.15 s; the
// probe is bounded at 6 s (spec "Limits") and cached per resolved binary path.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { CliInfo, NodeInfo } from '../../shared/channels/gateway-host.ts';
import { gatewayPaths } from '../../shared/paths.ts';
import { satisfiesNodeRange } from './node-range.ts';
import { IS_WINDOWS, runBounded, whichOnPath } from './proc.ts';

export const DETECTION_TIMEOUT_MS = 6000;
/** What openclaw 2026.9.x declares; used when the installed package cannot be read. */
export const DEFAULT_GATEWAY_NODE_RANGE = '>=24.16.0 <25 || >=26.1.0';
export const CLI_NAME = 'openclaw';

const VERSION_RE = /\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?/;

export interface CliDetector {
  /** The CLI's path: the configured override, else `openclaw` on PATH; null when none. */
  resolve(): string | null;
  detect(opts?: { refresh?: boolean }): Promise<CliInfo>;
  invalidate(): void;
  node(): Promise<NodeInfo>;
}

const EnginesPkg = z.object({ name: z.string().optional(), engines: z.object({ node: z.string() }).partial().optional() });

/** engines.node of the package that owns the CLI binary (follows the npm bin symlink). */
function enginesOf(cliPath: string): string | null {
  let dir: string;
  try {
    dir = dirname(realpathSync(cliPath));
  } catch {
    // A dangling link: nothing to read; the known default applies.
    return null;
  }
  for (let i = 0; i < 5; i++) {
    const pkgFile = join(dir, 'package.json');
    if (existsSync(pkgFile)) {
      try {
        const parsed = EnginesPkg.safeParse(JSON.parse(readFileSync(pkgFile, 'utf8')));
        return parsed.success ? (parsed.data.engines?.node ?? null) : null;
      } catch {
        // An unreadable package.json: the known default applies.
        return null;
      }
    }
    dir = dirname(dir);
  }
  return null;
}

export function createCliDetector(opts: { cliOverride: string | null; stateDir: string }): CliDetector {
  const versions = new Map<string, Promise<string | null>>();
  let nodeCache: { at: number; info: Promise<NodeInfo> } | null = null;

  const resolve = () => (opts.cliOverride ? (existsSync(opts.cliOverride) ? opts.cliOverride : null) : whichOnPath(CLI_NAME));

  const probeVersion = async (path: string): Promise<string | null> => {
    const r = await runBounded(path, ['--version'], { timeoutMs: DETECTION_TIMEOUT_MS, kind: 'gateway-cli' });
    if (r.exitCode !== 0) return null;
    return VERSION_RE.exec(r.stdout)?.[0] ?? null;
  };

  return {
    resolve,
    invalidate() {
      versions.clear();
      nodeCache = null;
    },
    async detect({ refresh = false } = {}) {
      const g = gatewayPaths(opts.stateDir);
      const base = { stateDir: g.stateDir, configExists: existsSync(g.configFile), envExists: existsSync(g.envFile) };
      const path = resolve();
      if (!path) return { installed: false, version: null, path: null, ...base };
      if (refresh) versions.delete(path);
      let pending = versions.get(path);
      if (!pending) {
        pending = probeVersion(path);
        versions.set(path, pending);
      }
      const version = await pending;
      // A failed probe is not cached: the next status tries again.
      if (version === null) versions.delete(path);
      return { installed: true, version, path, ...base };
    },
    node() {
      // The node on PATH can change only when the user changes PATH; a minute is plenty.
      if (nodeCache && Date.now() - nodeCache.at < 60_000) return nodeCache.info;
      const info = (async (): Promise<NodeInfo> => {
        const onPath = whichOnPath(IS_WINDOWS ? 'node.exe' : 'node');
        let version = process.version;
        let path = process.execPath;
        if (onPath) {
          const r = await runBounded(onPath, ['--version'], { timeoutMs: DETECTION_TIMEOUT_MS, kind: 'system' });
          const v = VERSION_RE.exec(r.stdout)?.[0];
          if (v) {
            version = `v${v}`;
            path = onPath;
          }
        }
        const major = Number(/^v?(\d+)/.exec(version)?.[1] ?? 0);
        const cli = resolve();
        const gatewayRequirement = (cli ? enginesOf(cli) : null) ?? DEFAULT_GATEWAY_NODE_RANGE;
        return {
          version,
          major,
          sufficient: major >= 22,
          path,
          gatewayRequirement,
          meetsGatewayRequirement: satisfiesNodeRange(version, gatewayRequirement),
        };
      })();
      nodeCache = { at: Date.now(), info };
      return info;
    },
  };
}
