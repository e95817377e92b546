// The roster part of what svc wires into the gateway (issue 23 item 1, now
// applied by the reconciler): each gateway agent's
// `agents.entries.<id>.subagents.allowAgents`, from svc's teams (the rule:
// shared/teams/delegation-sync.ts `allowAgentsFor`). Only the gateway's own
// agents are written (an entry IS a gateway agent: one for an id the gateway
// lacks would create an agent), lists compare as sets, and the first time
// svc writes a list it records what the entry held before, so that turning
// the wiring off puts exactly that back.
import { getPath, isJsonObject, type JsonObject } from '../gateway/config-file.ts';
import { OpList, type ConfigOp } from './config-ops.ts';
import type { WiringLedger } from './ledger.ts';

const pathOf = (agent: string): string[] => ['agents', 'entries', agent, 'subagents', 'allowAgents'];

/** An entry's allowAgents as a list of ids; null when unset or not a list of strings. */
function listOf(config: unknown, agent: string): string[] | null {
  const list = getPath(config, pathOf(agent));
  return Array.isArray(list) && list.every((v) => typeof v === 'string') ? [...(list as string[])] : null;
}

const sameSet = (a: readonly string[] | null, b: readonly string[]): boolean => a !== null && a.length === b.length && b.every((id) => a.includes(id));

export interface RosterPlan {
  ops: ConfigOp[];
  allowBefore: WiringLedger['allowBefore'];
}

/**
 * `want`: gateway id -> the ids it may spawn (every agent svc knows), or
 * null when the wiring is off. Lists svc wrote for agents it no longer
 * knows, or all of them when off, go back to what they were.
 */
export function planRoster(config: JsonObject, want: ReadonlyMap<string, readonly string[]> | null, ledger: WiringLedger, gatewayAgents: readonly string[]): RosterPlan {
  const ops = new OpList(config);
  const entries = getPath(config, ['agents', 'entries']);
  const hasEntry = (id: string) => (isJsonObject(entries) && Object.hasOwn(entries, id) && isJsonObject(entries[id])) || gatewayAgents.includes(id);
  const before = new Map(ledger.allowBefore.map((r) => [r.agent, r.before] as const));
  const kept: WiringLedger['allowBefore'] = [];
  for (const [agent, list] of want ?? []) {
    if (!hasEntry(agent)) continue;
    const current = listOf(config, agent);
    if (!before.has(agent) && sameSet(current, list)) continue;
    kept.push({ agent, before: before.has(agent) ? (before.get(agent) ?? null) : current });
    if (!sameSet(current, list)) ops.set(pathOf(agent), [...list]);
  }
  const still = new Set(kept.map((r) => r.agent));
  for (const r of ledger.allowBefore) {
    if (still.has(r.agent) || !hasEntry(r.agent)) continue;
    if (r.before === null) ops.remove(pathOf(r.agent));
    else ops.set(pathOf(r.agent), r.before);
  }
  return { ops: ops.list, allowBefore: kept };
}
