// Object keys that come from input (an agent id, a provider name, a variable
// name, a key of a hand-edited file). On a plain object, `obj['__proto__']`
// reads and writes the prototype, and `obj['constructor']` reads a function
// that every object inherits; code that walks or builds JSON with such keys
// must read own properties only and define them rather than assign them.

/** Keys that name JavaScript's object machinery: refused where an id taken from input becomes a key. */
export const PROTOTYPE_KEYS: readonly string[] = Object.freeze(['__proto__', 'constructor', 'prototype']);

export function isPrototypeKey(key: string): boolean {
  return PROTOTYPE_KEYS.includes(key);
}

/** `obj[key]` when it is obj's own property; undefined otherwise (never an inherited value). */
export function ownValue(obj: object, key: string): unknown {
  return Object.hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

/**
 * Sets `obj[key] = value` as an own, enumerable data property, also for
 * `__proto__` (plain assignment would replace the object's prototype, and
 * JSON.stringify would then leave the key out).
 */
export function setOwn(obj: object, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/** An empty record with no prototype: any key is an ordinary key. */
export function emptyRecord<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}
