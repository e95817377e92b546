// Spec "Smaller resources" → "Marketplace catalog": the index and bundle
// formats are untrusted input; these are the rules the schemas enforce.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BundleSchema, IndexSchema } from '../../shared/catalog/index.ts';
import { describeZodError } from '../../shared/catalog/schemas.ts';

const SECTION = 'Smaller resources → Marketplace catalog';

const agent = (id: string, documents: Record<string, string> = { 'AGENTS.md': '# A\n' }) => ({ id, name: id, role: 'Role', description: 'd', documents });
const team = (over: Record<string, unknown> = {}) => ({ id: 't', name: 'T', icon: '🚀', color: '#3b82f6', description: 'd', members: ['a'], lead: 'a', ...over });
const bundle = (over: Record<string, unknown> = {}) => ({ format: 'svc-catalog-bundle@1', pack: 'p', agents: [agent('a')], teams: [team()], ...over });

function refusal(input: unknown): string {
  const r = BundleSchema.safeParse(input);
  assert.equal(r.success, false, 'expected a refusal');
  return r.success ? '' : describeZodError(r.error);
}

void test(`${SECTION}: a minimal bundle parses with defaults for tags, rules and brief`, () => {
  const b = BundleSchema.parse(bundle());
  assert.deepEqual(b.agents[0]?.tags, []);
  assert.equal(b.teams[0]?.rules, '');
  assert.equal(b.teams[0]?.brief, '');
});

void test(`${SECTION}: a bundle shipping a synthesized document (IDENTITY.md, USER.md, any case) is refused`, () => {
  for (const name of ['IDENTITY.md', 'USER.md', 'user.md', 'Identity.md']) {
    assert.match(refusal(bundle({ agents: [agent('a', { 'AGENTS.md': '# A', [name]: 'x' })] })), new RegExp(`${name.replace('.', '\\.')} is synthesized by svc`));
  }
});

void test(`${SECTION}: document names are plain Markdown file names and AGENTS.md is required`, () => {
  for (const name of ['../AGENTS.md', 'sub/x.md', 'notes.txt', '.hidden.md', 'a b.md']) {
    assert.match(refusal(bundle({ agents: [agent('a', { 'AGENTS.md': '# A', [name]: 'x' })] })), /plain Markdown file names/, name);
  }
  // zod's record parser drops a __proto__ key: it never reaches a response or an object's prototype.
  const poisoned = BundleSchema.parse(bundle({ agents: [agent('a', JSON.parse('{"AGENTS.md":"# A","__proto__":{"x":1}}') as Record<string, string>)] }));
  assert.deepEqual(Object.keys(poisoned.agents[0]?.documents ?? {}), ['AGENTS.md']);
  assert.match(refusal(bundle({ agents: [agent('a', { 'SOUL.md': 'x' })] })), /needs a non-empty AGENTS\.md/);
  assert.match(refusal(bundle({ agents: [agent('a', { 'AGENTS.md': '   ' })] })), /needs a non-empty AGENTS\.md/);
});

void test(`${SECTION}: team templates fit what svc creates (emoji icon, hex colour, lead among members of this bundle)`, () => {
  assert.match(refusal(bundle({ teams: [team({ icon: 'rocket' })] })), /icon must be an emoji/);
  assert.match(refusal(bundle({ teams: [team({ color: 'blue' })] })), /color must be a hex colour/);
  assert.match(refusal(bundle({ teams: [team({ lead: 'b', members: ['a'] })] })), /lead must be one of the members/);
  assert.match(refusal(bundle({ teams: [team({ members: ['a', 'ghost'] })] })), /names agents not in this bundle: ghost/);
  assert.match(refusal(bundle({ teams: [team({ rules: 'x'.repeat(4001) })] })), /rules/);
  assert.ok(BundleSchema.safeParse(bundle({ teams: [team({ color: '#abc', icon: '✍️' })] })).success);
});

void test(`${SECTION}: ids are slugs and unique within a bundle`, () => {
  assert.match(refusal(bundle({ agents: [agent('Has Space')] , teams: [] })), /lowercase slug/);
  assert.match(refusal(bundle({ agents: [agent('a'), agent('a')] })), /agent ids must be unique/);
  assert.match(refusal(bundle({ format: 'svc-catalog-bundle@2' })), /format/);
});

void test(`${SECTION}: an index needs the format tag, unique pack ids and a 64-hex sha256 per pack`, () => {
  const pack = { id: 'p', name: 'P', description: 'd', version: '1.0.0', bundle: 'p.json', sha256: 'A'.repeat(64) };
  const ok = IndexSchema.parse({ format: 'svc-catalog-index@1', packs: [pack] });
  assert.equal(ok.packs[0]?.sha256, 'a'.repeat(64), 'digests are compared in lowercase');
  assert.equal(IndexSchema.safeParse({ format: 'svc-catalog-index@1', packs: [pack, pack] }).success, false);
  assert.equal(IndexSchema.safeParse({ format: 'svc-catalog-index@1', packs: [{ ...pack, sha256: 'abc' }] }).success, false);
  assert.equal(IndexSchema.safeParse({ packs: [pack] }).success, false);
});
