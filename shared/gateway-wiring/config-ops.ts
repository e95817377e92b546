// Changes to the gateway's openclaw.json as data: each part of what svc
// wires into the gateway (rosters, MCP attach, model routing) plans a list
// of ConfigOps against the config as it is, and the reconciler applies them
// all at once: as one JSON merge patch through the gateway's own
// `config.patch`, or in place on the file. Planning against the current
// value keeps every plan idempotent: a plan over its own result is empty.
import { child, getPath, isJsonObject, type JsonObject } from '../gateway/config-file.ts';
import { setOwn } from '../object-keys.ts';

/** One change: `value: undefined` removes the key. */
export interface ConfigOp {
  path: string[];
  value: unknown;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isJsonObject(a) && isJsonObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** Collects ops against one config: a set that changes nothing, or a removal of nothing, is not recorded. */
export class OpList {
  readonly list: ConfigOp[] = [];
  constructor(private readonly config: JsonObject) {}
  /** Sets `path` unless it already holds an equal value. */
  set(path: string[], value: unknown): void {
    if (!deepEqual(getPath(this.config, path), value)) this.list.push({ path, value });
  }
  /** Sets each key of `value` under `path` that differs (other keys a user added stay). */
  merge(path: string[], value: JsonObject): void {
    const current = getPath(this.config, path);
    if (!isJsonObject(current)) return void this.list.push({ path, value });
    for (const [k, v] of Object.entries(value)) this.set([...path, k], v);
  }
  remove(path: string[]): void {
    if (getPath(this.config, path) !== undefined) this.list.push({ path, value: undefined });
  }
}

/** The ops as one JSON merge patch (null removes a key), for `config.patch`. */
export function mergePatchOf(ops: readonly ConfigOp[]): JsonObject {
  const root: JsonObject = {};
  for (const { path, value } of ops) {
    let node = root;
    for (const key of path.slice(0, -1)) node = child(node, key);
    setOwn(node, path[path.length - 1] as string, value === undefined ? null : value);
  }
  return root;
}

/** Applies the ops to a config object in place. */
export function applyOps(config: JsonObject, ops: readonly ConfigOp[]): void {
  for (const { path, value } of ops) {
    const parentPath = path.slice(0, -1);
    const key = path[path.length - 1] as string;
    if (value === undefined) {
      const parent = getPath(config, parentPath);
      if (isJsonObject(parent)) delete parent[key];
      continue;
    }
    let node = config;
    for (const k of parentPath) node = child(node, k);
    setOwn(node, key, value);
  }
}

/** Array paths at or below `path` in `value` (not inside arrays): what removing or replacing it removes. */
function arrayPaths(value: unknown, path: readonly string[]): string[][] {
  if (Array.isArray(value)) return [[...path]];
  if (!isJsonObject(value)) return [];
  return Object.entries(value).flatMap(([k, v]) => arrayPaths(v, [...path, k]));
}

/**
 * The gateway refuses a patch that removes array entries unless each such
 * array's exact path is listed in `replacePaths` ("would remove entries from
 * array path(s)"). These are the arrays the ops replace or remove.
 */
export function replacePathsOf(config: unknown, ops: readonly ConfigOp[]): string[] {
  const out = new Set<string>();
  for (const op of ops) {
    const current = getPath(config, op.path);
    if (op.value === undefined || Array.isArray(op.value)) for (const p of arrayPaths(current, op.path)) out.add(p.join('.'));
  }
  return [...out];
}

/** Whether every op can be named in a dotted `replacePaths` entry (a key with a dot in it cannot). */
export const dottable = (ops: readonly ConfigOp[]): boolean => ops.every((op) => op.path.every((k) => !k.includes('.')));

/**
 * The objects the ops would create on the way to what they set: for each
 * set, the first missing ancestor (its own path when the value is an
 * object). svc records them, so that undoing its values also removes the
 * containers it made, and only while they are empty.
 */
export function createdContainers(config: unknown, ops: readonly ConfigOp[]): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  for (const op of ops) {
    if (op.value === undefined) continue;
    for (let i = 1; i <= op.path.length; i++) {
      const prefix = op.path.slice(0, i);
      if (i === op.path.length && !isJsonObject(op.value)) break;
      if (getPath(config, prefix) !== undefined) continue;
      const key = JSON.stringify(prefix);
      if (!seen.has(key)) {
        seen.add(key);
        out.push(prefix);
      }
      break;
    }
  }
  return out;
}

/** Whether each op's value is what `config` now holds (a removal: absent). */
export function mismatches(config: unknown, ops: readonly ConfigOp[]): string[][] {
  return ops.filter((op) => !deepEqual(getPath(config, op.path), op.value)).map((op) => op.path);
}

/** The gateway refuses a write that leaves its config under half its size (`size-drop`); svc keeps each step above this share. */
export const KEEP_SHARE = 0.6;

const sizeOf = (config: unknown): number => JSON.stringify(config, null, 2).length;

/**
 * The ops in steps the gateway takes: each leaves the config at least
 * KEEP_SHARE of its size before that step (taking out a lot at once, as the
 * undo does, would be refused as a clobber). One step when nothing shrinks
 * much; an op that alone shrinks it more than that is a step of its own.
 */
export function stepsBySize(config: unknown, ops: readonly ConfigOp[]): ConfigOp[][] {
  const after = structuredClone(config) as JsonObject;
  applyOps(after, ops);
  if (sizeOf(after) >= KEEP_SHARE * sizeOf(config)) return ops.length === 0 ? [] : [[...ops]];
  const steps: ConfigOp[][] = [];
  const current = structuredClone(config) as JsonObject;
  let floor = KEEP_SHARE * sizeOf(current);
  let step: ConfigOp[] = [];
  for (const op of ops) {
    const trial = structuredClone(current);
    applyOps(trial, [op]);
    if (step.length > 0 && sizeOf(trial) < floor) {
      steps.push(step);
      step = [];
      floor = KEEP_SHARE * sizeOf(current);
    }
    applyOps(current, [op]);
    step.push(op);
  }
  if (step.length > 0) steps.push(step);
  return steps;
}
