// The model-endpoint bench's three paths to one fake provider: direct, the
// bare node:http proxy (fixtures/bare-proxy.ts) and svc's endpoint (the
// production build, on a home seeded as the routing sync leaves it: the
// registry with AGENTS agents on one upstream, each listing the bench's
// model, the upstream key in the vault bound to the provider's origin, a `model` token per agent, and a
// global cap budget far out of reach, so every call is reserved under a cap,
// forwarded, settled, recorded and costed as in production). With
// BENCH_PIN=1 both proxies are pinned to CPU 1 and this process (client and
// fake provider) to CPU 0; by default nothing is pinned: on the shared
// 2-core machine (load average 23-29) a pinned process waited for its one
// core while the other was free, and every pinned p50 was 10 ms or more
// (0.8 ms unpinned for the bare proxy).
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { createAgentTokenStore } from '../../shared/agent-tokens/index.ts';
import { createBudgetService } from '../../shared/budgets/index.ts';
import { loadConfig } from '../../shared/config.ts';
import { checkpointAndClose, openDatabase } from '../../shared/db/open.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import { SERVER_NODE_FLAGS } from '../../shared/launcher/node-flags.ts';
import { REGISTRY_KEY } from '../../shared/model-routing/registry.ts';
import { svcPaths } from '../../shared/paths.ts';
import { createVault } from '../../shared/vault/index.ts';
import { freePort, tempHome, testEnv } from '../helpers/server.ts';
import { BARE_PROXY } from './fixtures/bare-proxy.ts';
import { startFakeUpstream, type FakeUpstream } from './fixtures/model-upstream.ts';
import { waitFor200 } from './lib/http.ts';
import { pinToCpus, spawnNode, type Proc } from './lib/processes.ts';
import { sleep } from './lib/stats.ts';
import { startSvc, type Svc } from './lib/svc.ts';
import type { Target } from './model-endpoint-client.ts';

/** Priced by every price source as `openai/gpt-4o-mini` (the registry's upstream id is the provider). */
export const MODEL = 'gpt-4o-mini';
const UPSTREAM_ID = 'openai';
/** Load spread over several agents, as a team's calls are (and under any per-agent limit svc may set). */
export const AGENTS = 16;
const agentId = (k: number) => `bench${k}`;

export interface Paths {
  up: FakeUpstream;
  direct: Target;
  bare: Target;
  /** svc's endpoint, one target per agent (its own path and token). */
  svc: Target[];
  svcProc: Svc;
  bareProc: Proc;
  pinned: boolean;
  stop(): Promise<void>;
}

function seedHome(home: string, baseUrl: string): string[] {
  const config = loadConfig(testEnv(home));
  const vault = createVault({ paths: svcPaths(config), masterKeyOverride: null });
  vault.set('BENCH_UPSTREAM_KEY', 'sk-bench-upstream-key');
  const db = openDatabase(join(home, 'svc.db'));
  try {
    const agents = Object.fromEntries(Array.from({ length: AGENTS }, (_, k) => [agentId(k), { upstream: UPSTREAM_ID, models: [MODEL] }]));
    createSettingsTable(db).set(
      REGISTRY_KEY,
      JSON.stringify({
        agents,
        upstreams: { [UPSTREAM_ID]: { api: 'openai-completions', baseUrl, keyName: 'BENCH_UPSTREAM_KEY', headers: {} } },
        // The key bound to the fake provider's origin, as the sync binds a key the gateway's files sent there.
        keyHosts: { BENCH_UPSTREAM_KEY: [new URL(baseUrl).origin] },
      }),
    );
    createBudgetService({ db, config }).store.upsert({ scope: 'global', scopeId: 'all', model: null, mode: 'cap', period: 'none', limitUsdCents: 100_000_000 });
    const tokens = createAgentTokenStore(db);
    return Array.from({ length: AGENTS }, (_, k) => tokens.mint('model', { agentId: agentId(k) }).token);
  } finally {
    checkpointAndClose(db);
  }
}

export async function startPaths(): Promise<Paths> {
  const up = await startFakeUpstream(MODEL);
  const origin = new URL(up.baseUrl).origin;
  const barePort = await freePort();
  const bareProc = spawnNode([...SERVER_NODE_FLAGS, '-e', BARE_PROXY], { ...process.env, PORT: String(barePort), UPSTREAM: origin });
  const home = tempHome('svc-bench-');
  const tokens = seedHome(home, up.baseUrl);
  const svcProc = await startSvc({}, { home }).catch(async (err: unknown) => {
    await bareProc.stop();
    await up.close();
    throw err;
  });
  const pinned = process.env.BENCH_PIN === '1' && pinToCpus(process.pid, '0') && pinToCpus(bareProc.pid, '1') && pinToCpus(svcProc.proc.pid, '1');
  const stop = async () => {
    if (pinned) pinToCpus(process.pid, '0-1');
    await svcProc.stop();
    await bareProc.stop();
    await up.close();
  };
  try {
    await waitFor200(barePort, '/', bareProc);
  } catch (err) {
    await stop();
    throw err;
  }
  const path = '/v1/chat/completions';
  return {
    up,
    direct: { label: 'direct', url: new URL(`${up.baseUrl}/chat/completions`), token: null },
    bare: { label: 'bare proxy', url: new URL(`http://127.0.0.1:${barePort}${path}`), token: null },
    svc: tokens.map((token, k) => ({ label: 'svc', url: new URL(`http://127.0.0.1:${svcProc.port}/model/${agentId(k)}${path}`), token })),
    svcProc,
    bareProc,
    pinned,
    stop,
  };
}

export interface Ledger {
  /** model_calls rows by outcome. */
  outcomes: Record<string, number>;
  openReservations: number;
  reservedMicroUsd: number;
  spentMicroUsd: number;
}

/**
 * What svc's database says about the calls once they are over: every call
 * settled `ok`, no reservation left open. Read-only, beside the running
 * server (WAL); polled until no call is `open` (a settlement follows the
 * answer's last byte) or 10 s pass.
 */
export async function readLedger(dbPath: string): Promise<Ledger> {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const open = db.prepare(`SELECT COUNT(*) FROM model_calls WHERE outcome = 'open'`).pluck();
    for (let waited = 0; (open.get() as number) > 0 && waited < 10_000; waited += 50) await sleep(50);
    const rows = db.prepare(`SELECT outcome, COUNT(*) AS n FROM model_calls GROUP BY outcome`).all() as Array<{ outcome: string; n: number }>;
    const budget = db.prepare(`SELECT reserved_micro_usd AS reserved, spent_micro_usd AS spent FROM budgets WHERE scope = 'global'`).get() as { reserved: number; spent: number };
    return {
      outcomes: Object.fromEntries(rows.map((r) => [r.outcome, r.n])),
      openReservations: db.prepare(`SELECT COUNT(*) FROM budget_reservations WHERE state = 'open'`).pluck().get() as number,
      reservedMicroUsd: budget.reserved,
      spentMicroUsd: budget.spent,
    };
  } finally {
    db.close();
  }
}
