// Issue 16 #3, clean seams: no import cycle among svc's sources. Every .ts
// file under supervisor/, shared/, workers/ and bin/ is parsed with the
// TypeScript compiler; its imports (type-only ones too: a cycle through a
// type is still a loop for the reader), its `export … from` and any
// `import('…')` with a literal path are resolved when relative, and the graph
// must have no cycle. A failure names each cycle, file by file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '../helpers/server.ts';

const SELF = 'Clean seams (issue 16 #3)';
const ROOTS = ['supervisor', 'shared', 'workers', 'bin'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === 'node_modules') return [];
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

/** Every module specifier a file names: imports, re-exports, `import type`, `import('x')` types and calls. */
export function specifiersOf(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const literal = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) literal(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) literal(node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** A relative specifier's file (`./x.ts`, `./x.js` built from `x.ts`, `./x` as `x.ts` or `x/index.ts`); null for packages. */
function resolveSpecifier(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  const candidates = [base, base.replace(/\.(m?)js$/, '.$1ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => c.endsWith('.ts') && existsSync(c)) ?? null;
}

/**
 * The loops a depth-first walk closes: each edge back to a file still on the
 * walk's path is one cycle, that path from the file back to itself. Every
 * cyclic graph has at least one; breaking all reported ones and walking
 * again converges on none.
 */
export function findCycles(graph: Map<string, string[]>): string[][] {
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const cycles: string[][] = [];
  const walk = (v: string): void => {
    path.push(v);
    onPath.add(v);
    for (const w of graph.get(v) ?? []) {
      if (onPath.has(w)) cycles.push([...path.slice(path.indexOf(w)), w]);
      else if (!done.has(w)) walk(w);
    }
    path.pop();
    onPath.delete(v);
    done.add(v);
  };
  for (const v of [...graph.keys()].sort()) if (!done.has(v)) walk(v);
  return cycles;
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of ROOTS.flatMap((d) => sources(join(REPO_ROOT, d)))) {
    const targets = specifiersOf(file, readFileSync(file, 'utf8'))
      .map((spec) => resolveSpecifier(file, spec))
      .filter((t): t is string => t !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

void test(`${SELF}: the parser finds every kind of import, type-only ones included`, () => {
  const text = [
    "import a from './a.ts';",
    "import type { B } from './b.ts';",
    "import { type C, d } from './c.ts';",
    "export { e } from './e.ts';",
    "export type { F } from './f.ts';",
    "import './g.ts';",
    "type H = import('./h.ts').H;",
    "const i = await import('./i.ts');",
    "// import x from './not-code.ts';",
    "const s = \"import y from './in-a-string.ts'\";",
  ].join('\n');
  assert.deepEqual(specifiersOf('x.ts', text), ['./a.ts', './b.ts', './c.ts', './e.ts', './f.ts', './g.ts', './h.ts', './i.ts']);
});

void test(`${SELF}: the cycle finder names a loop, type-only or not, and passes a tree`, () => {
  const looped = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a', 'd']],
    ['d', []],
    ['e', ['e']],
  ]);
  assert.deepEqual(findCycles(looped).sort(), [['a', 'b', 'c', 'a'], ['e', 'e']]);
  assert.deepEqual(findCycles(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]])), []);
});

void test(`${SELF}: no import cycle among the files under supervisor/, shared/, workers/ and bin/`, () => {
  const graph = importGraph();
  assert.ok(graph.size > 200, `the walk found ${graph.size} files`);
  const edges = [...graph.values()].reduce((n, targets) => n + targets.length, 0);
  assert.ok(edges > graph.size, `the imports resolved (${edges} edges)`);
  const named = findCycles(graph).map((cycle) => cycle.map((f) => relative(REPO_ROOT, f)).join(' → '));
  assert.deepEqual(named, [], `import cycles:\n${named.join('\n')}`);
});

/** `import type { A }` or `import { type A, type B }`: nothing of it exists at run time. */
function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (clause === undefined) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return clause.name === undefined && named !== undefined && ts.isNamedImports(named) && named.elements.every((e) => e.isTypeOnly);
}

void test(`${SELF}: supervisor/deps.ts is a leaf: type-only imports and one declaration, AppDeps`, () => {
  const file = join(REPO_ROOT, 'supervisor', 'deps.ts');
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const valueImports: string[] = [];
  const declared: string[] = [];
  for (const node of sf.statements) {
    if (ts.isImportDeclaration(node)) {
      if (!isTypeOnlyImport(node)) valueImports.push(node.getText(sf));
    } else if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isClassDeclaration(node) || ts.isFunctionDeclaration(node)) {
      declared.push(node.name?.text ?? '?');
    } else {
      declared.push(ts.SyntaxKind[node.kind]);
    }
  }
  assert.deepEqual(valueImports, [], 'deps.ts imports types only');
  assert.deepEqual(declared, ['AppDeps'], 'deps.ts declares AppDeps and nothing else: each interface lives with its implementation');
});

void test(`${SELF}: imports follow the layout: services/ never import http/, only main.ts imports runtime.ts, shared/ and workers/ never import supervisor/`, () => {
  const graph = importGraph();
  const at = (...parts: string[]) => join(REPO_ROOT, ...parts);
  const within = (file: string, dir: string) => !relative(dir, file).startsWith('..');
  const rules: Array<{ why: string; from: (f: string) => boolean; to: (f: string) => boolean }> = [
    { why: 'a service does not depend on the front door', from: (f) => within(f, at('supervisor', 'services')), to: (f) => within(f, at('supervisor', 'http')) },
    { why: 'the entry point is imported by no source', from: () => true, to: (f) => f === at('supervisor', 'main.ts') },
    { why: 'only the entry point imports the composition root', from: (f) => f !== at('supervisor', 'main.ts'), to: (f) => f === at('supervisor', 'runtime.ts') },
    { why: 'shared/ and workers/ run without the supervisor', from: (f) => within(f, at('shared')) || within(f, at('workers')), to: (f) => within(f, at('supervisor')) },
  ];
  const broken = [...graph].flatMap(([from, targets]) =>
    rules.flatMap((rule) => (rule.from(from) ? targets.filter(rule.to).map((to) => `${relative(REPO_ROOT, from)} → ${relative(REPO_ROOT, to)} (${rule.why})`) : [])),
  );
  assert.deepEqual(broken, []);
});
