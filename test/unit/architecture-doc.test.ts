// Issue 32 #6: docs/architecture.md names every folder of shared/, every
// service of supervisor/services/ and every worker of workers/, so a folder
// or service added without a line there fails here; a name the doc still
// mentions but the tree no longer has fails too. Nothing in the repository
// cites a document kept outside it (the gateway kit's recipe, the spec's
// folder): such a comment points at docs/ instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../helpers/server.ts';

const doc = readFileSync(join(REPO_ROOT, 'docs', 'architecture.md'), 'utf8');
const folders = (dir: string) => readdirSync(join(REPO_ROOT, dir)).filter((n) => statSync(join(REPO_ROOT, dir, n)).isDirectory());
const named = (name: string) => doc.includes(`\`${name}\``);

// shared/'s folders and the folders inside them (team-chat/runs/ and the like).
const sharedFolders = folders('shared').flatMap((f) => [f, ...folders(join('shared', f))]);

void test('Issue 32 #6: the architecture doc names every folder of shared/, one level down too', () => {
  assert.deepEqual(sharedFolders.filter((f) => !named(`${f}/`)), []);
});

void test('Issue 32 #6: the architecture doc names every service and every worker', () => {
  const services = readdirSync(join(REPO_ROOT, 'supervisor', 'services')).filter((n) => n.endsWith('.ts'));
  assert.deepEqual(services.filter((f) => !named(f)), []);
  assert.deepEqual(folders('workers').filter((f) => !named(`${f}/`)), []);
});

void test('Issue 32 #6: every shared/ folder and service the doc names exists', () => {
  const shared = new Set(sharedFolders);
  const services = new Set(readdirSync(join(REPO_ROOT, 'supervisor', 'services')));
  const sharedList = doc.slice(doc.indexOf('`shared/` (any thread):'), doc.indexOf('## Design notes'));
  const inList = [...sharedList.matchAll(/`([a-z-]+)\/`/g)].map((m) => m[1] as string).filter((f) => f !== 'shared');
  assert.deepEqual(inList.filter((f) => !shared.has(f)), []);
  const servicesTable = doc.slice(doc.indexOf('| `supervisor/services/`'), doc.indexOf('Imports point one way'));
  const listed = [...servicesTable.matchAll(/`([a-z-]+\.ts)`/g)].map((m) => m[1] as string);
  assert.ok(listed.length > 0, 'the services table was not found');
  assert.deepEqual(listed.filter((f) => !services.has(f)), []);
});

function filesUnder(dir: string, exts: string[]): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === 'node_modules' || name === 'dist' || name === 'screenshots') return [];
    return statSync(p).isDirectory() ? filesUnder(p, exts) : exts.some((e) => name.endsWith(e)) ? [p] : [];
  });
}

void test('Issue 32 #6: no comment or doc cites a document kept outside the repository', () => {
  const roots = ['supervisor', 'shared', 'workers', 'bin', 'test', 'docs', join('ui', 'src')];
  const files = roots.flatMap((r) => filesUnder(join(REPO_ROOT, r), ['.ts', '.tsx', '.mjs', '.md'])).concat(join(REPO_ROOT, 'README.md'));
  // The gateway kit's recipe cited by section, the folder it and the spec live in, and the issues' design notes.
  const outside = /RECIPE(\.md)? ?§|\/work\/shared\/|\bdesign\d+\b/;
  const self = join(REPO_ROOT, 'test', 'unit', 'architecture-doc.test.ts');
  const hits = files.filter((f) => f !== self).flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .flatMap((line, i) => (outside.test(line) ? [`${relative(REPO_ROOT, f)}:${i + 1}`] : [])),
  );
  assert.deepEqual(hits, []);
});
