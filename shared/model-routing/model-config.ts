// Where an agent's model and its fallbacks are set in openclaw.json, read as
// OpenClaw reads them, and how svc writes them back. OpenClaw 2026.9
// (agent-scope: resolveAgentEffectiveModelPrimary,
// resolveAgentModelFallbacksOverride; model-selection-resolve:
// resolveConfiguredModelFallbacks):
// - the primary is the entry's `model` (a string, or `{primary}`), else
//   `agents.defaults.model` (a string, or `{primary}`);
// - the fallbacks are the entry's `model.fallbacks` when it is an array; an
//   entry `model` that names a primary without a `fallbacks` key (a string,
//   or `{primary}`) has none; any other entry (no `model`, `{}`) takes
//   `agents.defaults.model.fallbacks`.
// So an agent on the defaults that svc gives a model of its own loses the
// defaults' fallbacks unless svc writes them into its entry too.
import { getPath, isJsonObject, type JsonObject } from '../gateway/config-file.ts';
import type { OpList } from '../gateway-wiring/config-ops.ts';
import { own } from './upstream-lookup.ts';

const entryModelOf = (config: unknown, agentId: string): unknown => own(own(getPath(config, ['agents', 'entries']), agentId), 'model');
const entryModelPath = (agentId: string): string[] => ['agents', 'entries', agentId, 'model'];

/** The agent's model ref and where it is set: its entry (string or `{primary}`), else the defaults. */
export function modelRefOf(config: unknown, agentId: string): { ref: string | null; inEntry: 'string' | 'object' | null } {
  const entryModel = entryModelOf(config, agentId);
  if (typeof entryModel === 'string' && entryModel !== '') return { ref: entryModel, inEntry: 'string' };
  const primary = own(entryModel, 'primary');
  if (typeof primary === 'string' && primary !== '') return { ref: primary, inEntry: 'object' };
  return { ref: defaultModelRef(config), inEntry: null };
}

export function defaultModelRef(config: unknown): string | null {
  const model = getPath(config, ['agents', 'defaults', 'model']);
  if (typeof model === 'string' && model !== '') return model;
  const primary = own(model, 'primary');
  return typeof primary === 'string' && primary !== '' ? primary : null;
}

/** The defaults' fallbacks (`agents.defaults.model.fallbacks`), as OpenClaw lists them. */
export function defaultFallbacks(config: unknown): unknown[] {
  const list = own(getPath(config, ['agents', 'defaults', 'model']), 'fallbacks');
  return Array.isArray(list) ? list : [];
}

/**
 * The agent's fallbacks and where they come from: `entry` (its own
 * `model.fallbacks`), `none` (its entry names a primary and no fallbacks),
 * `defaults` (inherited).
 */
export function fallbacksOf(config: unknown, agentId: string): { refs: unknown[]; source: 'entry' | 'none' | 'defaults' } {
  const entryModel = entryModelOf(config, agentId);
  if (typeof entryModel === 'string') return entryModel === '' ? { refs: defaultFallbacks(config), source: 'defaults' } : { refs: [], source: 'none' };
  if (isJsonObject(entryModel)) {
    if (Object.hasOwn(entryModel, 'fallbacks')) {
      if (Array.isArray(entryModel.fallbacks)) return { refs: entryModel.fallbacks, source: 'entry' };
    } else if (typeof entryModel.primary === 'string' && entryModel.primary !== '') return { refs: [], source: 'none' };
  }
  return { refs: defaultFallbacks(config), source: 'defaults' };
}

/** One change to a part of the entry's model: a new value, its removal, or none (`null`). */
export type PartChange<T> = { set: T } | { remove: true } | null;

/**
 * Writes the agent's primary and fallbacks into its entry where they are
 * set today: `{primary}` in an object, else the `model` string; fallbacks
 * turn a string into `{primary, fallbacks}` (a string has none). A removal
 * that would leave the object empty removes `model` itself: the agent is
 * back on the defaults, as before svc wrote it.
 */
export function writeEntryModel(ops: OpList, config: JsonObject, agentId: string, primary: PartChange<string>, fallbacks: PartChange<unknown[]>): void {
  if (primary === null && fallbacks === null) return;
  const path = entryModelPath(agentId);
  const current = entryModelOf(config, agentId);
  if (isJsonObject(current)) {
    const after: JsonObject = { ...current };
    for (const [key, change] of [['primary', primary], ['fallbacks', fallbacks]] as const) {
      if (change === null) continue;
      if ('set' in change) after[key] = change.set;
      else delete after[key];
    }
    if (Object.keys(after).length === 0) return ops.remove(path);
    for (const key of ['primary', 'fallbacks'] as const) {
      if (Object.hasOwn(after, key)) ops.set([...path, key], after[key]);
      else ops.remove([...path, key]);
    }
    return;
  }
  // A string (or nothing): the primary is the whole value.
  const primaryAfter = primary === null ? (typeof current === 'string' && current !== '' ? current : null) : 'set' in primary ? primary.set : null;
  const fallbacksAfter = fallbacks !== null && 'set' in fallbacks && fallbacks.set.length > 0 ? fallbacks.set : null;
  if (fallbacksAfter !== null) ops.set(path, primaryAfter === null ? { fallbacks: fallbacksAfter } : { primary: primaryAfter, fallbacks: fallbacksAfter });
  else if (primaryAfter !== null) ops.set(path, primaryAfter);
  else ops.remove(path);
}

// The sub-agent model (OpenClaw 2026.9, model-selection-config:
// resolveSubagentConfiguredModelSelection; agent-scope:
// resolveSubagentModelFallbacksOverride): an agent spawned as a sub-agent
// runs on its entry's `subagents.model` (a string, or `{primary,
// fallbacks}`), else `agents.defaults.subagents.model`, else its own model.
// Only the first two name refs of their own; the third is routed already.

const subagentModelPath = (agentId: string): string[] => ['agents', 'entries', agentId, 'subagents', 'model'];

/** A `model` value (a string, or `{primary, fallbacks}`) that names a primary or fallbacks. */
function namesModels(value: unknown): boolean {
  if (typeof value === 'string') return value !== '';
  const primary = own(value, 'primary');
  const fallbacks = own(value, 'fallbacks');
  return (typeof primary === 'string' && primary !== '') || (Array.isArray(fallbacks) && fallbacks.length > 0);
}

export function defaultSubagentModel(config: unknown): unknown {
  const value = own(getPath(config, ['agents', 'defaults', 'subagents']), 'model');
  return namesModels(value) ? value : null;
}

/** The agent's sub-agent model as set: in its entry, inherited from the defaults, or none (its own model). */
export function subagentModelOf(config: unknown, agentId: string): { value: unknown; source: 'entry' | 'defaults' | null } {
  const entry = own(own(own(getPath(config, ['agents', 'entries']), agentId), 'subagents'), 'model');
  if (namesModels(entry)) return { value: entry, source: 'entry' };
  const inherited = defaultSubagentModel(config);
  return inherited === null ? { value: null, source: null } : { value: inherited, source: 'defaults' };
}

/** The refs a `model` value names, primary first. */
export function refsOfModelValue(value: unknown): unknown[] {
  if (typeof value === 'string') return [value];
  const primary = own(value, 'primary');
  const fallbacks = own(value, 'fallbacks');
  return [...(typeof primary === 'string' && primary !== '' ? [primary] : []), ...(Array.isArray(fallbacks) ? fallbacks : [])];
}

/** The same `model` value with its refs replaced in order (refsOfModelValue's order); other keys kept. */
export function withModelRefs(value: unknown, refs: readonly unknown[]): unknown {
  if (typeof value === 'string') return refs[0] ?? value;
  if (!isJsonObject(value)) return value;
  const out: JsonObject = { ...value };
  let i = 0;
  if (typeof value.primary === 'string' && value.primary !== '') out.primary = refs[i++];
  if (Array.isArray(value.fallbacks)) out.fallbacks = refs.slice(i, i + value.fallbacks.length);
  return out;
}

/** Sets the agent's `subagents.model` to `value`, or removes it (and a `subagents` left empty) on `null`. */
export function writeSubagentModel(ops: OpList, config: unknown, agentId: string, value: unknown): void {
  const path = subagentModelPath(agentId);
  if (value !== null) return ops.set(path, value);
  const subagents = getPath(config, path.slice(0, -1));
  if (isJsonObject(subagents) && Object.keys(subagents).every((k) => k === 'model')) ops.remove(path.slice(0, -1));
  else ops.remove(path);
}
