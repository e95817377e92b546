// Who each gateway agent may hand work to with `sessions_spawn`: the list
// `agents.entries.<id>.subagents.allowAgents` in openclaw.json, which the
// gateway enforces (an unlisted target is answered `forbidden`:
// docs/gateway-facts.md, "Native delegation"), read here; the gateway
// reconciler (shared/gateway-wiring/roster.ts) writes it.
import { ownValue } from '../object-keys.ts';
import { getPath, isJsonObject, type JsonObject } from './config-file.ts';

/** `agents.entries` when it is an object (the gateway's current schema), else null. */
function entriesOf(config: unknown): JsonObject | null {
  const entries = getPath(config, ['agents', 'entries']);
  return isJsonObject(entries) ? entries : null;
}

/** An entry's allowAgents as a list of ids; null when unset or not a list of strings. */
function allowAgentsOf(entry: unknown): string[] | null {
  const list = getPath(entry, ['subagents', 'allowAgents']);
  return Array.isArray(list) && list.every((v) => typeof v === 'string') ? [...(list as string[])] : null;
}

/** Every gateway agent id the config has an entry for, with its allowAgents (null when unset). */
export function readAllowAgents(config: unknown): Map<string, string[] | null> {
  const out = new Map<string, string[] | null>();
  const entries = entriesOf(config);
  if (!entries) return out;
  for (const id of Object.keys(entries)) out.set(id, allowAgentsOf(ownValue(entries, id)));
  return out;
}
