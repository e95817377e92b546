// Detection of the gateway CLI and of the node that runs it. The CLI is a
// `#!/usr/bin/env node` script, so the node that matters is the first one on
// the PATH svc gives the CLI, not the one running svc: that PATH has the Node
// svc installed for the gateway first, when there is one (issue 30 #6,
// shared/gateway/managed-node.ts). `--version` answers in about 0.15 s; the
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
  /** The Node range the gateway needs: the installed CLI's engines.node, else DEFAULT_GATEWAY_NODE_RANGE. */
  requirement(): string;
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

export interface CliDetectorOptions {
  cliOverride: string | null;
  stateDir: string;
  /** The PATH every gateway CLI run gets (the managed Node first when installed). */
  cliPath: () => string | undefined;
  /** The managed Node's binary, null when none is installed. */
  managedNode: () => string | null;
  /** What the Node install would install here; null when npm has no package for this platform. */
  managedSpec: string | null;
}

export function createCliDetector(opts: CliDetectorOptions): CliDetector {
  const versions = new Map<string, Promise<string | null>>();
  let nodeCache: { at: number; info: Promise<NodeInfo> } | null = null;

  const resolve = () => (opts.cliOverride ? (existsSync(opts.cliOverride) ? opts.cliOverride : null) : whichOnPath(CLI_NAME, opts.cliPath()));
  /** engines.node of the installed CLI, else the known default. */
  const requirement = () => {
    const cli = resolve();
    return (cli ? enginesOf(cli) : null) ?? DEFAULT_GATEWAY_NODE_RANGE;
  };

  const probeVersion = async (path: string): Promise<string | null> => {
    const r = await runBounded(path, ['--version'], { timeoutMs: DETECTION_TIMEOUT_MS, kind: 'gateway-cli', env: { PATH: opts.cliPath() } });
    if (r.exitCode !== 0) return null;
    return VERSION_RE.exec(r.stdout)?.[0] ?? null;
  };

  return {
    resolve,
    requirement,
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
      // The node on PATH changes when the user changes PATH (a minute is
      // plenty) or when svc installs its own (invalidate() after the install).
      if (nodeCache && Date.now() - nodeCache.at < 60_000) return nodeCache.info;
      const info = (async (): Promise<NodeInfo> => {
        const onPath = whichOnPath(IS_WINDOWS ? 'node.exe' : 'node', opts.cliPath());
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
        const gatewayRequirement = requirement();
        return {
          version,
          major,
          sufficient: major >= 22,
          path,
          gatewayRequirement,
          meetsGatewayRequirement: satisfiesNodeRange(version, gatewayRequirement),
          managed: onPath !== null && path === onPath && onPath === opts.managedNode(),
          managedSpec: opts.managedSpec,
        };
      })();
      nodeCache = { at: Date.now(), info };
      return info;
    },
  };
}
