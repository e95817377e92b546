// A small evaluator for the npm `engines.node` ranges the gateway declares
// (e.g. ">=24.16.0 <25 || >=26.1.0"): `||` alternatives of space-separated
// comparators (>=, >, <=, <, =, or a bare version; missing minor/patch read
// as 0). Anything else (^, ~, x-ranges, hyphens) is "cannot tell": null.
type Triple = [number, number, number];

const COMPARATOR = /^(>=|<=|>|<|=)?v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/;

export function parseNodeVersion(v: string): Triple | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

function cmp(a: Triple, b: Triple): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number) ? -1 : 1;
  return 0;
}

function test(op: string, c: number): boolean {
  switch (op) {
    case '>=': return c >= 0;
    case '>': return c > 0;
    case '<=': return c <= 0;
    case '<': return c < 0;
    default: return c === 0;
  }
}

/** Whether `version` satisfies `range`; null when the range uses syntax this evaluator does not know. */
export function satisfiesNodeRange(version: string, range: string): boolean | null {
  const v = parseNodeVersion(version);
  if (!v) return null;
  let any = false;
  for (const alt of range.split('||')) {
    const parts = alt.trim().split(/\s+/).filter(Boolean);
    if (parts.length === 0) return null;
    let all = true;
    for (const part of parts) {
      const m = COMPARATOR.exec(part);
      if (!m) return null;
      const bound: Triple = [Number(m[2]), Number(m[3] ?? 0), Number(m[4] ?? 0)];
      if (!test(m[1] ?? '=', cmp(v, bound))) all = false;
    }
    if (all) any = true;
  }
  return any;
}
