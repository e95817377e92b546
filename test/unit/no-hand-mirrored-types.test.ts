// Issue 32: a shape is written once, as a zod schema, and its type is read
// off it (z.infer, z.input, z.output). This fails when a type mirrors a
// schema by hand. For every exported `const Foo = z.object({...})` under
// shared/, supervisor/ and workers/, no `interface` or `type … = { … }`
// under shared/, supervisor/, workers/ or ui/src may be named Foo (unless it
// is the derived `type Foo = z.infer<typeof Foo>`), or declare exactly the
// schema's field names. Files are parsed with the TypeScript compiler; a
// failure names the schema and each type that mirrors it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '../helpers/server.ts';

const SCHEMA_ROOTS = ['shared', 'supervisor', 'workers'];
const TYPE_ROOTS = ['shared', 'supervisor', 'workers', 'ui/src'];
/** Fewer fields than this match too much by chance (`{ ok }`, `{ id, name }`); the name rule still applies. */
const MIN_FIELDS = 3;

interface SchemaDecl { name: string; file: string; fields: string[] | null }
interface TypeDecl { name: string; file: string; line: number; fields: string[]; derived: boolean }

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [p] : [];
  });
}

const propName = (n: ts.PropertyName | undefined): string | null =>
  n && (ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n)) ? n.text : null;

/** `z.object({...})` (or z.strictObject / z.looseObject) at the root of a call chain such as `.strict()`; its literal's field names, null when not all are literal. */
function zodObjectFields(init: ts.Expression): string[] | null | undefined {
  let e: ts.Expression = init;
  while (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression)) {
    const callee = e.expression;
    if (ts.isIdentifier(callee.expression) && callee.expression.text === 'z' && ['object', 'strictObject', 'looseObject'].includes(callee.name.text)) {
      const arg = e.arguments[0];
      if (!arg || !ts.isObjectLiteralExpression(arg)) return null;
      const names = arg.properties.map((p) => (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p) || ts.isMethodDeclaration(p) ? propName(p.name) : null));
      return names.every((n): n is string => n !== null) ? names : null;
    }
    e = callee.expression;
  }
  return undefined;
}

/** A type reference to z.infer / z.input / z.output (or zod's TypeOf): a type read off a schema. */
function isDerived(node: ts.Node): boolean {
  if (!ts.isTypeReferenceNode(node) && !ts.isExpressionWithTypeArguments(node)) return false;
  const name = ts.isTypeReferenceNode(node) ? node.typeName.getText() : node.expression.getText();
  return /^z\.(infer|input|output|TypeOf)$/.test(name);
}

const membersOf = (members: ts.NodeArray<ts.TypeElement>): string[] =>
  members.flatMap((m) => (ts.isPropertySignature(m) || ts.isMethodSignature(m) ? [propName(m.name)].filter((n): n is string => n !== null) : []));

export function declarationsOf(file: string, text: string): { schemas: SchemaDecl[]; types: TypeDecl[] } {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const schemas: SchemaDecl[] = [];
  const types: TypeDecl[] = [];
  const line = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isVariableStatement(node) && node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      for (const d of node.declarationList.declarations) {
        if (!ts.isIdentifier(d.name) || !d.initializer) continue;
        const fields = zodObjectFields(d.initializer);
        if (fields !== undefined) schemas.push({ name: d.name.text, file, fields });
      }
    } else if (ts.isInterfaceDeclaration(node)) {
      const derived = node.members.length === 0 && (node.heritageClauses ?? []).some((h) => h.types.some(isDerived));
      types.push({ name: node.name.text, file, line: line(node), fields: membersOf(node.members), derived });
    } else if (ts.isTypeAliasDeclaration(node)) {
      const fields = ts.isTypeLiteralNode(node.type) ? membersOf(node.type.members) : [];
      types.push({ name: node.name.text, file, line: line(node), fields, derived: !ts.isTypeLiteralNode(node.type) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { schemas, types };
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && new Set([...a, ...b]).size === a.length;

interface Mirror {
  /** `file: Type ~ Schema`, without the line: what KNOWN lists. */
  key: string;
  message: string;
}

/** Each type that mirrors a schema by hand. */
export function handMirrors(schemas: readonly SchemaDecl[], types: readonly TypeDecl[]): Mirror[] {
  const found: Mirror[] = [];
  for (const t of types) {
    if (t.derived) continue;
    for (const s of schemas) {
      const byName = t.name === s.name;
      const byFields = s.fields !== null && s.fields.length >= MIN_FIELDS && sameSet(s.fields, t.fields);
      if (!byName && !byFields) continue;
      found.push({
        key: `${t.file}: ${t.name} ~ ${s.name}`,
        message: `${t.file}:${t.line}: ${t.name} ${byName ? 'has the name of' : 'has the fields of'} schema ${s.name} (${s.file}); derive it with z.infer<typeof ${s.name}>`,
      });
    }
  }
  return found;
}

/**
 * What the check finds today and lets pass, each with why: a different
 * shape that happens to share the names (not a mirror). A real mirror is
 * derived from its schema, not listed here. A line that no longer matches
 * fails too.
 */
const KNOWN: Readonly<Record<string, string>> = {
  // Not mirrors: same names, other types.
  'shared/agents/store.ts: AgentFilter ~ AgentListQuerySchema': "the store's filter: includeArchived is a boolean; the query string's is 'true' | 'false'",
  'shared/workboard/view.ts: WorkboardSnapshot ~ WorkboardView': "the gateway's cards as read (GatewayCard[]); the view serves WorkboardCard[]",
};

function scanTree(): { schemas: SchemaDecl[]; types: TypeDecl[] } {
  const schemas: SchemaDecl[] = [];
  const types: TypeDecl[] = [];
  for (const root of TYPE_ROOTS) {
    for (const path of sources(join(REPO_ROOT, root))) {
      const file = relative(REPO_ROOT, path);
      const d = declarationsOf(file, readFileSync(path, 'utf8'));
      if (SCHEMA_ROOTS.some((r) => file.startsWith(`${r}/`))) schemas.push(...d.schemas);
      types.push(...d.types);
    }
  }
  return { schemas, types };
}

void test('One source (issue 32): no interface or object type under shared/, supervisor/, workers/ or ui/src mirrors a zod object schema by hand', () => {
  const { schemas, types } = scanTree();
  assert.ok(schemas.length > 100, `the scan finds the exported object schemas (sanity: ${schemas.length})`);
  assert.ok(types.length > 100, `the scan finds the declared types (sanity: ${types.length})`);
  const found = handMirrors(schemas, types);
  assert.deepEqual(found.filter((m) => !Object.hasOwn(KNOWN, m.key)).map((m) => m.message), [], 'types written by hand beside the schema they copy');
  const keys = new Set(found.map((m) => m.key));
  assert.deepEqual(Object.keys(KNOWN).filter((k) => !keys.has(k)), [], 'KNOWN lines that no longer match: delete them');
});

void test('One source (issue 32): the check catches a planted mirror by name and by fields, and passes derived types', () => {
  const schemaFile = declarationsOf('shared/x/schema.ts', [
    "export const Widget = z.object({ id: z.string(), size: z.number(), colour: z.string().optional() }).strict();",
    "export const Opaque = z.object(shape);",
    "const Local = z.object({ a: z.string(), b: z.string(), c: z.string() });",
  ].join('\n'));
  assert.deepEqual(schemaFile.schemas.map((s) => [s.name, s.fields]), [['Widget', ['id', 'size', 'colour']], ['Opaque', null]]);
  const planted = declarationsOf('ui/src/x/types.ts', [
    'export interface Widget { id: string; size: number; colour?: string }',
    'type Gadget = { colour?: string; id: string; size: number };',
    'export type Opaque = { anything: true };',
    'interface Small { id: string; size: number }',
    'type Derived = z.infer<typeof Widget>;',
    'export type Widget2 = z.input<typeof Widget>;',
    'interface FromSchema extends z.output<typeof Widget> {}',
  ].join('\n'));
  const found = handMirrors(schemaFile.schemas, planted.types).map((m) => m.message);
  assert.equal(found.length, 3, found.join('\n'));
  assert.match(found[0] ?? '', /ui\/src\/x\/types\.ts:1: Widget has the name of schema Widget/);
  assert.match(found[1] ?? '', /ui\/src\/x\/types\.ts:2: Gadget has the fields of schema Widget/);
  assert.match(found[2] ?? '', /ui\/src\/x\/types\.ts:3: Opaque has the name of schema Opaque/);
});
