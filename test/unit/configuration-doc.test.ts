// Issue 16 #4 and issue 32: docs/configuration.md documents every environment
// variable svc reads, as the settings table declares it. The table
// (shared/config-settings.ts) writes the page's generated block: the
// environment table, the whole numbers' ranges and the secrets' names. The
// block must be exactly what the table gives (rewrite it with
// `node --import tsx test/unit/write-configuration-doc.ts`); and, read back
// as a reader would, every variable EnvSchema reads has a row, and the page
// names no `SVC_*` variable svc does not read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EnvSchema, SETTING_ENTRIES } from '../../shared/config.ts';
import { configurationDocBlock, DOC_BEGIN, DOC_END, withDocBlock } from '../../shared/config-doc.ts';

const DOC = 'docs/configuration.md';
const TABLE_HEADING = '## Environment variables';

/** The backticked names in the first cell of each row of the environment table. */
function documentedVariables(markdown: string): string[] {
  const start = markdown.indexOf(`\n${TABLE_HEADING}\n`);
  assert.ok(start >= 0, `${DOC} has a "${TABLE_HEADING}" section`);
  const rest = markdown.slice(start + TABLE_HEADING.length + 2);
  const end = rest.search(/^## /m);
  const section = end === -1 ? rest : rest.slice(0, end);
  const names: string[] = [];
  for (const line of section.split('\n')) {
    if (!line.startsWith('|') || /^\|\s*-/.test(line)) continue;
    const firstCell = line.split('|')[1] ?? '';
    for (const m of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.push(m[1] as string);
  }
  return names;
}

/** Every `SVC_*` name anywhere on the page (prose, examples, `$SVC_HOME`). */
function svcNamesMentioned(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(/\bSVC_[A-Z0-9_]*[A-Z0-9]\b/g)].map((m) => m[0]))];
}

const schemaNames = Object.keys(EnvSchema.shape).sort();
const doc = readFileSync(new URL(`../../${DOC}`, import.meta.url), 'utf8');

const expected = configurationDocBlock(SETTING_ENTRIES.map(([, s]) => s));

void test('Configuration (issue 32): the generated block of docs/configuration.md is what the settings table declares', () => {
  const start = doc.indexOf(DOC_BEGIN);
  const end = doc.indexOf(DOC_END);
  assert.ok(start >= 0 && end > start, `${DOC} holds the generated block's markers`);
  const actual = doc.slice(start, end + DOC_END.length);
  assert.equal(actual, expected, `${DOC} is out of date: run \`node --import tsx test/unit/write-configuration-doc.ts\``);
});

void test('Configuration (issue 32): the block check fails on a changed default, and the rewrite restores it', () => {
  const edited = doc.replace('| `SVC_MAX_STREAMS` | `2000` |', '| `SVC_MAX_STREAMS` | `2001` |');
  assert.notEqual(edited, doc, 'the SVC_MAX_STREAMS row exists to edit');
  assert.notEqual(edited.slice(edited.indexOf(DOC_BEGIN), edited.indexOf(DOC_END) + DOC_END.length), expected);
  assert.equal(withDocBlock(edited, expected), doc);
});

void test('Configuration (issue 16 #4): every variable EnvSchema reads has a row in docs/configuration.md', () => {
  assert.ok(schemaNames.length > 30, 'the schema lists the variables (sanity: it is not empty)');
  const documented = new Set(documentedVariables(doc));
  const undocumented = schemaNames.filter((n) => !documented.has(n));
  assert.deepEqual(undocumented, [], `read by shared/config.ts but not documented in ${DOC}`);
});

void test('Configuration (issue 16 #4): docs/configuration.md documents no variable svc does not read', () => {
  const known = new Set(schemaNames);
  const documented = documentedVariables(doc);
  assert.deepEqual(documented.filter((n) => !known.has(n)), [], `a row in ${DOC} names a variable EnvSchema does not read`);
  assert.equal(new Set(documented).size, documented.length, 'each variable has one row');
  assert.deepEqual(svcNamesMentioned(doc).filter((n) => !known.has(n)), [], `${DOC} mentions an SVC_* variable EnvSchema does not read`);
});

void test('Configuration (issue 16 #4): the checks catch a missing row and an unknown name', () => {
  // The parsers above on a page with one row dropped and one invented: proves the check can fail.
  const dropped = doc.replace(/^\| `SVC_RATE_LIMIT` \|.*\n/m, '');
  assert.notEqual(dropped, doc, 'the SVC_RATE_LIMIT row exists to drop');
  assert.ok(!documentedVariables(dropped).includes('SVC_RATE_LIMIT'));
  const invented = doc.replace(`${TABLE_HEADING}\n`, `${TABLE_HEADING}\n\nSee also \`SVC_NOT_A_SETTING\`.\n`);
  assert.ok(svcNamesMentioned(invented).includes('SVC_NOT_A_SETTING'));
  assert.ok(!schemaNames.includes('SVC_NOT_A_SETTING'));
});
