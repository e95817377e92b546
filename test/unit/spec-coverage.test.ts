// Issue 16 #5: every section of the contract listed in test/spec-sections.ts
// is proven by at least one test whose name cites it, and the sections listed
// as not served yet are still not served (so serving one moves it onto the
// list). Test names are read from the test files' source, as written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTestApp } from '../helpers/app.ts';
import { REPO_ROOT } from '../helpers/server.ts';
import { ROUTE_GROUPS, SECTIONS, SMALLER_RESOURCES, UNSERVED, type SpecSection } from '../spec-sections.ts';

const SELF = 'Testing (issue 16 #5)';
const THIS_FILE = fileURLToPath(import.meta.url);

/** Every *.test.ts under test/ (the benchmarks are not tests). */
function testFiles(dir = join(REPO_ROOT, 'test')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'bench' || name === 'node_modules') return [];
    return statSync(path).isDirectory() ? testFiles(path) : name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * The names of the tests a file declares: the first argument of a call of
 * test, t.test, it, describe or suite, when it is a string, or a template
 * whose placeholders are the file's own top-level string constants.
 * Comments are left out first.
 */
function testNames(file: string): string[] {
  const source = file.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const constants = new Map<string, string>();
  for (const m of source.matchAll(/^const ([A-Za-z_]\w*) = (['"`])((?:(?!\2)[^\\\n]|\\.)*)\2;/gm)) constants.set(m[1] as string, m[3] as string);
  const names: string[] = [];
  for (const m of source.matchAll(/(?<![\w.])(?:t\.)?(?:test|it|describe|suite)(?:\.only|\.skip|\.todo)?\(\s*(['"`])((?:(?!\1)[^\\]|\\.)*)\1/g)) {
    const raw = m[2] as string;
    names.push((m[1] === '`' ? raw.replace(/\$\{(\w+)\}/g, (all, id: string) => constants.get(id) ?? all) : raw).replace(/\\(.)/g, '$1'));
  }
  return names;
}

/** Whether `name` starts with the section's heading or one of its spellings, followed by a break. */
function cites(name: string, section: SpecSection): boolean {
  return [section.heading, ...(section.cite ?? [])].some((c) => name.startsWith(c) && (name.length === c.length || /[:\s→(,]/.test(name.charAt(c.length))));
}

const LISTED: readonly SpecSection[] = [...ROUTE_GROUPS, ...SMALLER_RESOURCES, ...SECTIONS];

void test(`${SELF}: the test-name reader finds the tests of this file, with template names resolved`, () => {
  const mine = testNames(readFileSync(THIS_FILE, 'utf8'));
  assert.deepEqual(mine, [
    `${SELF}: the test-name reader finds the tests of this file, with template names resolved`,
    `${SELF}: every route group, smaller resource and section on the list is cited by a test name`,
    `${SELF}: the sections listed as not served are still not served`,
  ]);
  // Assembled, so that this file's own source does not hold these calls.
  const sample = ['void test', "('Limits (issue 15 #15): x', () => {});\n", 'assert.ok(UUID_RE.test', "('not-a-test'));\n", '// test', "('a comment');\n", 'await t.test', '("Teams: y", () => {});'];
  assert.deepEqual(testNames(sample.join('')), ['Limits (issue 15 #15): x', 'Teams: y']);
  assert.equal(cites('Limits (issue 15 #15): x', { heading: 'Limits', under: 'top level' }), true);
  assert.equal(cites('Smaller resources → Skills: x', { heading: 'Skills', under: 'Smaller resources', cite: ['Smaller resources → Skills'] }), true);
  assert.equal(cites('Eventsourcing: x', { heading: 'Events', under: 'top level' }), false, 'a longer word is not a citation');
});

void test(`${SELF}: every route group, smaller resource and section on the list is cited by a test name`, () => {
  const names = testFiles().flatMap((file) => testNames(readFileSync(file, 'utf8')).map((name) => ({ file: relative(REPO_ROOT, file), name })));
  assert.ok(names.length > 500, `the reader found ${names.length} test names: too few to be all of them`);
  const headings = LISTED.map((s) => s.heading);
  assert.deepEqual(headings.filter((h, i) => headings.indexOf(h) !== i), [], 'no section is listed twice');
  const uncited = LISTED.filter((section) => !names.some(({ name }) => cites(name, section)));
  assert.deepEqual(
    uncited.map((s) => `${s.heading} (${s.under})`),
    [],
    'no test name cites these sections of test/spec-sections.ts: name the test that proves each after it ("<section>: ..."), or add one',
  );
  // Not served sections cannot be cited: if a test does, svc serves it and it belongs on the list above.
  const citedUnserved = UNSERVED.filter((section) => names.some(({ name }) => cites(name, section)));
  assert.deepEqual(citedUnserved.map((s) => s.heading), [], 'a test cites a section listed as not served: move it from UNSERVED to the list');
});

void test(`${SELF}: the sections listed as not served are still not served`, async (t) => {
  const { app } = await buildTestApp(t);
  for (const section of UNSERVED) {
    for (const probe of section.probes) {
      const res = await app.inject({ method: probe.method, url: probe.url });
      assert.deepEqual(
        [res.statusCode, res.json()],
        [404, { error: 'not found' }],
        `${probe.method} ${probe.url} is served now: move "${section.heading}" from UNSERVED in test/spec-sections.ts to the sections tests must cite`,
      );
    }
  }
  // The probe tells a served route from a missing one: a served route of the same shape does not get the router's 404.
  const served = await app.inject({ method: 'GET', url: '/api/governance/audit' });
  assert.equal(served.statusCode, 200);
});
