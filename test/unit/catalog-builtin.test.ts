// Spec "Smaller resources" → "Marketplace catalog": the built-in pack shipped
// in catalog/builtin is always merged, so its digest must match its bundle and
// its bundle must pass the same validation as any third-party one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BundleSchema, builtinDir, IndexSchema, sha256Hex, SYNTHESIZED_DOCUMENTS } from '../../shared/catalog/index.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIR = builtinDir(ROOT);
const SECTION = 'Smaller resources → Marketplace catalog';

const index = IndexSchema.parse(JSON.parse(readFileSync(join(DIR, 'index.json'), 'utf8')));

void test(`${SECTION}: the built-in index lists one pack whose sha256 matches its bundle bytes`, () => {
  assert.equal(index.packs.length, 1);
  for (const pack of index.packs) {
    const bytes = readFileSync(join(DIR, pack.bundle));
    assert.equal(sha256Hex(bytes), pack.sha256, `stale digest for ${pack.id}: run node catalog/rehash.mjs`);
  }
});

void test(`${SECTION}: catalog/rehash.mjs --check agrees that the built-in digest is current`, () => {
  const out = execFileSync(process.execPath, [join(ROOT, 'catalog', 'rehash.mjs'), '--check'], { encoding: 'utf8' });
  assert.match(out, /svc-starter: ok [0-9a-f]{64}/);
});

void test(`${SECTION}: the built-in bundle is a valid, useful starter pack`, () => {
  const [pack] = index.packs;
  assert.ok(pack);
  const bundle = BundleSchema.parse(JSON.parse(readFileSync(join(DIR, pack.bundle), 'utf8')));
  assert.equal(bundle.pack, pack.id);
  assert.ok(bundle.agents.length >= 5 && bundle.agents.length <= 8);
  assert.ok(bundle.teams.length >= 2 && bundle.teams.length <= 3);
  for (const a of bundle.agents) {
    const names = Object.keys(a.documents);
    assert.ok(names.includes('AGENTS.md') && names.includes('SOUL.md'), `${a.id}: ${names.join(', ')}`);
    for (const s of SYNTHESIZED_DOCUMENTS) assert.ok(!names.includes(s));
    // Real role documents: they say how to hand off and when to ask first.
    const agents = a.documents['AGENTS.md'] ?? '';
    assert.match(agents, /## Handoffs/, a.id);
    assert.match(agents, /## Ask for approval before/, a.id);
    assert.match(agents, /## Rules/, a.id);
  }
  const used = new Set(bundle.teams.flatMap((t) => t.members));
  for (const a of bundle.agents) assert.ok(used.has(a.id), `${a.id} belongs to no starter team`);
  for (const t of bundle.teams) assert.ok(t.rules.length > 0 && t.brief.length > 0, t.id);
});
