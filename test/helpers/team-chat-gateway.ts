// One real OpenClaw gateway for a team-chat test file (issue 17): Node 24 and
// the pinned openclaw from the test cache, the fake model as its only provider
// (priced in the gateway's config, FAKE_MODEL_COST unless the test gives
// another price, so runs cost something), `tools.toolSearch: false` so MCP
// tools are offered to the model directly (docs/gateway-facts.md, "MCP
// tools"), started by the test in its own process group so a test can kill it
// and start it again on the same state and port. Agents are created on it with
// `agents.create` on an operator session of the test's own (as the CLI would),
// and svc's MCP servers are attached by merging the gateway snippet of GET
// /api/mcp/config into openclaw.json, as a user pastes it.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { sendChat } from '../../shared/gateway/chat.ts';
import { connectGateway, type GatewaySession } from '../../shared/gateway/client.ts';
import { loadOrCreateDeviceIdentity } from '../../shared/gateway/device-identity.ts';
import { startFakeModel, type FakeModel } from './fake-model.ts';
import {
  ensureGatewayInstalled, FAKE_MODEL_COST, gatewayEnv, prepareGatewayState, startRealGateway, waitForConnect, type GatewayInstall, type ModelCost, type StartedGateway,
} from './real-gateway.ts';
import { freePort, removeHome, tempHome } from './server.ts';
import { waitFor } from './wait.ts';

/** The fake model's id in the gateway's config, priced there (TeamChatGateway.modelCost). */
export const PRICED_MODEL_ID = 'svc-e2e-llm';
/** The gateway takes 10-25 s to accept connects on two busy cores; generous so a slow start is not a failure. */
const GATEWAY_READY_MS = 180_000;

export interface TeamChatGateway {
  install: GatewayInstall;
  model: FakeModel;
  /** The fake model's price in the gateway's config (USD per million tokens): what svc prices its calls at. */
  modelCost: ModelCost;
  /** A temporary folder for the file: svc's SVC_HOME lives here, the gateway's state in `<home>/gateway-state`. */
  home: string;
  stateDir: string;
  port: number;
  url: string;
  token: string;
  /** The environment svc needs to find and reach this gateway (OPENCLAW_STATE_DIR, Node 24 on PATH, ...). */
  env: Record<string, string>;
  /** Starts `openclaw gateway run` (with `env` on top of its usual environment) and waits until a connect succeeds. */
  start(env?: Record<string, string>): Promise<void>;
  /** Whether the test started it and has not killed it since. */
  running(): boolean;
  /** SIGKILL to the gateway's process group (a crash), then waits until its port refuses connections. */
  kill(): Promise<void>;
  /** An operator session of the test's own (reopened after a restart). */
  session(): Promise<GatewaySession>;
  /** Creates the agents on the gateway (ids slugified from the names) and waits until agents.list shows them. */
  createAgents(names: readonly string[]): Promise<string[]>;
  /** Deep-merges a snippet into openclaw.json (the gateway hot-reloads it). */
  mergeConfig(snippet: Record<string, unknown>): void;
  close(): Promise<void>;
}

function deepMerge(target: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(patch)) {
    const cur = target[k];
    if (v && typeof v === 'object' && !Array.isArray(v) && cur && typeof cur === 'object' && !Array.isArray(cur)) {
      deepMerge(cur as Record<string, unknown>, v as Record<string, unknown>);
    } else {
      target[k] = v;
    }
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect({ host: '127.0.0.1', port });
    sock.once('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.once('error', () => resolve(false));
  });
}

export async function startTeamChatGateway(prefix: string, opts: { modelCost?: ModelCost } = {}): Promise<TeamChatGateway> {
  const install = await ensureGatewayInstalled();
  const model = await startFakeModel();
  const home = tempHome(prefix);
  const stateDir = join(home, 'gateway-state');
  const port = await freePort();
  const token = `test-${randomBytes(12).toString('hex')}`;
  const url = `ws://127.0.0.1:${port}`;
  const modelCost = { ...(opts.modelCost ?? FAKE_MODEL_COST) };
  prepareGatewayState(stateDir, { port, token, modelUrl: model.url, modelId: PRICED_MODEL_ID, cost: modelCost, toolSearch: false });
  const identity = loadOrCreateDeviceIdentity(join(home, 'test-client', 'identity.json'));
  let gateway: StartedGateway | null = null;
  let session: GatewaySession | null = null;

  const rig: TeamChatGateway = {
    install,
    model,
    modelCost,
    home,
    stateDir,
    port,
    url,
    token,
    env: gatewayEnv(install, stateDir),
    async start(env) {
      gateway = startRealGateway(install, stateDir, port, env);
      const started = gateway;
      await waitForConnect(url, token, identity, GATEWAY_READY_MS).catch((err: Error) => {
        throw new Error(`${err.message}\n--- gateway output ---\n${started.log()}`);
      });
    },
    running: () => gateway !== null,
    async kill() {
      const g = gateway;
      gateway = null;
      if (!g) return;
      try {
        process.kill(-g.pid, 'SIGKILL');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err; // already gone
      }
      await waitFor(async () => !(await listening(port)), { what: `the killed gateway's port ${port} to close` });
      await session?.close();
      session = null;
    },
    async session() {
      if (session && !session.closed) return session;
      session = await connectGateway({ url, token, identity, version: 'test', connectTimeoutMs: 30_000, requestTimeoutMs: 60_000 });
      return session;
    },
    async createAgents(names) {
      const s = await rig.session();
      const ids: string[] = [];
      for (const name of names) {
        const r = (await s.request('agents.create', { name, workspace: join(stateDir, 'workspaces', name.toLowerCase()) })) as { agentId: string };
        ids.push(r.agentId);
      }
      // agents.create writes the config; the gateway picks it up about a second later.
      await waitFor(async () => {
        const list = (await (await rig.session()).request('agents.list', {})) as { agents: Array<{ id: string }> };
        return ids.every((id) => list.agents.some((a) => a.id === id));
      }, { what: `agents ${ids.join(', ')} on the gateway`, intervalMs: 250, timeoutMs: 30_000 });
      return ids;
    },
    mergeConfig(snippet) {
      const file = join(stateDir, 'openclaw.json');
      const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      deepMerge(config, snippet);
      writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
    },
    async close() {
      await session?.close();
      session = null;
      const g = gateway;
      gateway = null;
      if (g) await g.stop();
      model.release();
      await model.close();
      removeHome(home);
    },
  };
  return rig;
}

/**
 * Gives `leadId` leave to spawn `childIds` on the gateway and waits until the
 * gateway enforces it: a probe spawn from a session of no team, repeated
 * until it is accepted. svc writes the same list from the team's roster
 * itself; writing it here too keeps a test independent of when svc's
 * connection came up.
 */
export async function allowSpawns(gw: TeamChatGateway, leadId: string, childIds: readonly string[]): Promise<void> {
  gw.mergeConfig({ agents: { entries: { [leadId]: { subagents: { allowAgents: [...childIds] } } } } });
  const session = await gw.session();
  await waitFor(async () => {
    const t = await sendChat(session, {
      sessionKey: `agent:${leadId}:probe-${randomBytes(3).toString('hex')}`,
      message: `TOOL@${leadId}: sessions_spawn {"task":"probe","agentId":"${childIds[0]}","label":"probe"}`,
      timeoutMs: 90_000,
    });
    return t.state === 'final' && t.text.includes('"accepted"');
  }, { what: 'the gateway to accept a spawn of a team member', timeoutMs: 120_000, intervalMs: 500 });
}
