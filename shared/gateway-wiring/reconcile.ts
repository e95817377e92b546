// One reconcile, read to read-back: svc's desired state for the gateway it
// is connected to, applied. The three parts each plan against the config as
// it is, so a round over its own result changes nothing:
//   roster    agents.entries.<id>.subagents.allowAgents from svc's teams
//   attach    svc's four MCP servers for each agent on a team, its binding in .env
//   routing   each agent's model through svc's endpoint, keys into svc's vault
// With the wiring off, every part plans its way back: the lists svc wrote
// get their old value, its entries and patterns go, routing puts the keys
// back. Objects svc created on the way are removed once empty. The ledger
// records what svc owns; it is saved only after the gateway took the write.
import { emptyRecord, setOwn } from '../object-keys.ts';
import type { ConfigLog } from '../gateway/config-file.ts';
import { getPath, isJsonObject } from '../gateway/config-file.ts';
import { prepareRouting, type RoutingDeps, type RoutingStep } from '../model-routing/sync.ts';
import { planAttach, type AttachTarget, type Binding } from './attach.ts';
import { bindingEnvName } from './attach-names.ts';
import { applyOps, createdContainers, deepEqual, type ConfigOp } from './config-ops.ts';
import type { GatewayRead } from './gateway-read.ts';
import { changedSinceLoad } from '../gateway/config-rpc.ts';
import { GatewayWriteError, addsEnv, keepOriginal, writeGateway, type WriteDeps, type WriteResult } from './gateway-write.ts';
import { ledgerEmpty, type LedgerStore, type WiringLedger } from './ledger.ts';
import { planRoster } from './roster.ts';

/** svc's side of the desired state. */
export interface DesiredState {
  /** The master switch: svc writes into the gateway at all. */
  wiring: boolean;
  attach: boolean;
  routing: boolean;
  svcPort: number | null;
  /** Gateway id -> the ids it may spawn, for every agent svc knows. */
  allowAgents: ReadonlyMap<string, readonly string[]>;
  /** The gateway agents on one of svc's teams, with the svc agent each one is. */
  onTeams: readonly AttachTarget[];
}

/** Minted MCP bindings, as the attach part uses them. */
export interface BindingTokens {
  mint(target: AttachTarget): { token: string; id: string };
  /** The live binding id of `token` when it is an MCP binding of `svcAgentId`, else null. */
  verify(svcAgentId: string, token: string): string | null;
  revoke(id: string): void;
}

export interface ReconcileDeps extends WriteDeps {
  ledgers: LedgerStore;
  routing: Omit<RoutingDeps, 'stateDir'>;
  bindings: BindingTokens;
  vault: { get(name: string): string | null; set(name: string, value: string): void; delete(name: string): boolean };
  /** Where the copy of openclaw.json goes when the gateway's folder is not svc's to write. */
  backupFallback: string;
  log: ConfigLog;
}

/** Why a part did not do what the desired state asks, or null. */
export interface PartsStatus {
  attach: string | null;
  routing: string | null;
}

export interface ReconcileOutcome {
  read: GatewayRead;
  write: WriteResult;
  changed: { config: number; envNames: string[] };
  parts: PartsStatus;
  routing: RoutingStep | null;
  ledger: WiringLedger;
  /** Retires what the old config used (old tokens, the routing's leftovers): run once the gateway uses the new one. */
  cleanup: () => void;
}

export const PART_REASONS = {
  noEnv: "svc cannot reach this gateway's .env, where the agents' credentials go (the gateway's files are not on this machine)",
  noPort: "svc's own port is not known yet",
} as const;

/** An object holding nothing but (objects holding nothing but) empty objects. */
const deepEmpty = (v: unknown): boolean => isJsonObject(v) && Object.values(v).every(deepEmpty);

/** Removes, deepest first, the objects svc created that are empty once `ops` are applied. */
function pruneCreated(config: unknown, ops: ConfigOp[], created: string[][]): { ops: ConfigOp[]; created: string[][] } {
  const after = structuredClone(config) as Record<string, unknown>;
  applyOps(after, ops);
  const out = [...ops];
  const kept: string[][] = [];
  for (const path of [...created].sort((a, b) => b.length - a.length)) {
    const value = getPath(after, path);
    if (value === undefined) continue;
    if (deepEmpty(value)) {
      const op = { path, value: undefined };
      out.push(op);
      applyOps(after, [op]);
      continue;
    }
    kept.push(path);
  }
  return { ops: out, created: kept };
}

/** The bindings the attach part names: each kept while it still verifies and names the same agent and team, else minted anew. */
function bindingResolver(deps: ReconcileDeps, ledger: WiringLedger, env: Readonly<Record<string, string>>, envChanges: Record<string, string | null>) {
  const minted: Binding[] = [];
  const resolve = (t: AttachTarget): Binding => {
    const prev = ledger.bindings.find((b) => b.agent === t.gatewayId);
    if (prev && prev.svcAgentId === t.svcAgentId && prev.teamId === t.teamId) {
      const value = deps.vault.get(prev.envName);
      if (value !== null && deps.bindings.verify(t.svcAgentId, value) === prev.tokenId) {
        if (env[prev.envName] !== value) setOwn(envChanges, prev.envName, value);
        return prev;
      }
    }
    const { token, id } = deps.bindings.mint(t);
    const b: Binding = { agent: t.gatewayId, svcAgentId: t.svcAgentId, teamId: t.teamId, envName: bindingEnvName(t.gatewayId, id), tokenId: id };
    deps.vault.set(b.envName, token);
    setOwn(envChanges, b.envName, token);
    minted.push(b);
    return b;
  };
  return { resolve, minted };
}

export async function reconcileOnce(deps: ReconcileDeps, read: GatewayRead, want: DesiredState): Promise<ReconcileOutcome> {
  const ledger = deps.ledgers.read(read.configPath);
  const parts: PartsStatus = { attach: null, routing: null };
  const envChanges = emptyRecord<string | null>();

  const roster = planRoster(read.config, want.wiring ? want.allowAgents : null, ledger, read.agentIds);

  const attachWanted = want.wiring && want.attach;
  let targets: readonly AttachTarget[] | null = attachWanted ? want.onTeams : null;
  if (attachWanted && read.env === null) [targets, parts.attach] = [null, PART_REASONS.noEnv];
  else if (attachWanted && want.svcPort === null) [targets, parts.attach] = [null, PART_REASONS.noPort];
  // Without the .env svc cannot take its entries out cleanly either (their variables are there): what it wrote stays until it can.
  const attachable = read.env !== null || ledger.servers.length === 0;
  const bindings = bindingResolver(deps, ledger, read.env ?? {}, envChanges);
  const attach = attachable
    ? planAttach({
        config: read.config,
        targets,
        gatewayAgents: read.agentIds,
        baseUrl: `http://127.0.0.1:${want.svcPort ?? 0}`,
        ledger,
        bindingFor: bindings.resolve,
      })
    : { ops: [], servers: ledger.servers, deny: ledger.deny, bindings: ledger.bindings };
  const retired = ledger.bindings.filter((b) => !attach.bindings.some((k) => k.tokenId === b.tokenId));
  if (read.env !== null) for (const b of retired) if (Object.hasOwn(read.env, b.envName)) setOwn(envChanges, b.envName, null);

  let routing: RoutingStep | null = null;
  const routingOn = want.wiring && want.routing;
  if (read.env === null || read.stateDir === null) {
    if (routingOn) parts.routing = PART_REASONS.noEnv;
  } else if (routingOn && want.svcPort === null) {
    parts.routing = PART_REASONS.noPort;
  } else {
    routing = prepareRouting({ ...deps.routing, stateDir: read.stateDir }, { config: read.config, env: read.env, agentIds: read.agentIds }, { enabled: routingOn, svcPort: want.svcPort });
    Object.assign(envChanges, routing.envChanges);
  }

  const ops = [...roster.ops, ...attach.ops, ...(routing?.configOps ?? [])];
  const created = [...ledger.created];
  for (const p of createdContainers(read.config, ops)) if (!created.some((c) => deepEqual(c, p))) created.push(p);
  const pruned = pruneCreated(read.config, ops, created);

  const next: WiringLedger = {
    version: 1,
    backup: ledger.backup,
    allowBefore: roster.allowBefore,
    servers: attach.servers,
    deny: attach.deny,
    bindings: attach.bindings,
    created: pruned.created,
    envPending: ledger.envPending,
  };
  if (ledgerEmpty(ledger) && pruned.ops.length > 0) next.backup = keepOriginal(read, deps.backupFallback, deps.log);
  let write: WriteResult;
  try {
    write = await writeGateway(deps, read, pruned.ops, envChanges, ledger.envPending);
  } catch (err) {
    if (err instanceof GatewayWriteError && err.timedOut) {
      // The gateway may still apply the write: what it names is kept (the ledger too), and the next round plans
      // against the config as it then is, and asks the gateway to read the .env it kept.
      deps.ledgers.write(read.configPath, { ...next, envPending: true });
      throw err;
    }
    // A write refused as changed since load kept its .env for the retry: the next round asks the gateway to read it.
    if (changedSinceLoad(err) && addsEnv(envChanges)) deps.ledgers.write(read.configPath, { ...ledger, envPending: true });
    // Nothing of this round stands: the bindings minted for it are taken back.
    for (const b of bindings.minted) {
      deps.bindings.revoke(b.tokenId);
      deps.vault.delete(b.envName);
    }
    throw err;
  }
  next.envPending = write.envPending;
  deps.ledgers.write(read.configPath, next);
  return {
    read,
    write,
    changed: { config: pruned.ops.length, envNames: Object.keys(envChanges) },
    parts,
    routing,
    ledger: next,
    cleanup: () => {
      routing?.cleanup();
      for (const b of retired) {
        deps.bindings.revoke(b.tokenId);
        deps.vault.delete(b.envName);
      }
    },
  };
}
