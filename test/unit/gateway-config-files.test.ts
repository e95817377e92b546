// Spec "System (host and gateway)": the gateway's .env and openclaw.json are
// edited read-modify-write, keeping everything svc did not set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc } from '../helpers/fc.ts';
import { parseDotenv } from '../../shared/settings/gateway-files.ts';
import { applyEnvChanges, formatEnvValue, updateGatewayEnv } from '../../shared/gateway/env-file.ts';
import { applyConfigPatch, editGatewayConfig, loadConfigForEdit, type ConfigLog } from '../../shared/gateway/config-file.ts';
import { apiKeysEnvVar, configureEnvVar, defaultModelFor, PROVIDERS } from '../../shared/gateway/providers.ts';
import { raceWriters } from '../helpers/concurrent-writer.ts';

const tempDir = (t: { after: (fn: () => void) => void }) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-gwfiles-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const quietLog = (): ConfigLog & { lines: string[] } => {
  const lines: string[] = [];
  return { lines, warn: (f, m) => void lines.push(`${m} ${JSON.stringify(f)}`), info: (f, m) => void lines.push(`${m} ${JSON.stringify(f)}`) };
};

const name = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,11}$/);
const otherLine = fc.oneof(
  fc.stringMatching(/^# [ -~]{0,20}$/),
  fc.constant(''),
  fc.tuple(name, fc.stringMatching(/^[A-Za-z0-9]{0,10}$/)).map(([k, v]) => `${k}=${v}`),
);
const value = fc.stringMatching(/^[ -~]{0,30}$/).filter((v) => !(v.includes("'") && (v.includes('"') || v.includes('\\'))));

void test('System: .env upsert keeps every other line in order and the value reads back (property)', () => {
  fc.assert(
    fc.property(fc.array(otherLine, { maxLength: 12 }), name, value, fc.boolean(), (lines, key, val, crlf) => {
      const kept = lines.filter((l) => !new RegExp(`^${key}=`).test(l));
      const eol = crlf ? '\r\n' : '\n';
      const text = kept.length ? kept.join(eol) + eol : '';
      const out = applyEnvChanges(text, { [key]: val });
      assert.equal(parseDotenv(out)[key], val);
      const outLines = out.split(/\r?\n/).filter((l) => !l.startsWith(`${key}=`));
      assert.deepEqual(outLines.slice(0, kept.length), kept);
    }),
  );
});

void test('System: .env remove drops every assignment of the name and nothing else (property)', () => {
  fc.assert(
    fc.property(fc.array(otherLine, { maxLength: 12 }), name, (lines, key) => {
      const text = [...lines, `${key}=x`, `export ${key}=y`].join('\n') + '\n';
      const out = applyEnvChanges(text, { [key]: null });
      assert.equal(Object.hasOwn(parseDotenv(out), key), false);
      const others = lines.filter((l) => !new RegExp(`^${key}=`).test(l));
      assert.equal(out, others.length ? `${others.join('\n')}\n` : '');
    }),
  );
});

void test('System: .env edit replaces in place, drops duplicates, appends new names, writes 0600', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, '.env'), '# keys\nA=1\nB=2 # note\nA=3\n\nexport C="c c"\n');
  updateGatewayEnv(dir, { A: 'new', D: 'has space', C: null });
  assert.equal(readFileSync(join(dir, '.env'), 'utf8'), "# keys\nA=new\nB=2 # note\n\nD='has space'\n");
  assert.equal(statSync(join(dir, '.env')).mode & 0o777, 0o600);
  assert.throws(() => formatEnvValue('X', 'a\nb'), (err: Error) => err.message.includes('X') && !err.message.includes('a\nb'));
  assert.equal(applyEnvChanges('A=1', { B: '2' }), 'A=1\nB=2\n', 'a file without a final newline gets one before the append');
});

void test('System: config edit keeps unknown keys, sets loopback when missing, keeps a chosen bind with a warning', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'openclaw.json');
  writeFileSync(file, '{ // c\n "meta": { "x": [1, {"y": null}] }, "gateway": { "port": 1 }, }');
  const log = quietLog();
  editGatewayConfig(dir, log, (c) => applyConfigPatch(c, { model: 'a/b' }, log));
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), {
    meta: { x: [1, { y: null }] }, gateway: { port: 1, bind: 'loopback' }, agents: { defaults: { model: { primary: 'a/b' } } },
  });
  assert.equal(statSync(file).mode & 0o777, 0o600);
  writeFileSync(file, JSON.stringify({ gateway: { bind: 'auto' } }));
  editGatewayConfig(dir, log, () => undefined);
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).gateway.bind, 'auto');
  assert.ok(log.lines.some((l) => l.includes('gateway.bind is not') && l.includes('auto')));
});

void test('System: a corrupt config is copied aside before the edit, byte for byte, never lost', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'openclaw.json');
  writeFileSync(file, 'not json at all {');
  const log = quietLog();
  editGatewayConfig(dir, log, (c) => applyConfigPatch(c, { gatewayPort: 1234 }, log));
  const aside = readdirSync(dir).filter((n) => n.startsWith('openclaw.json.corrupt-'));
  assert.equal(aside.length, 1);
  assert.equal(readFileSync(join(dir, aside[0] ?? ''), 'utf8'), 'not json at all {');
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { gateway: { port: 1234, bind: 'loopback' } });
  assert.ok(log.lines.some((l) => l.includes('kept aside')));
});

void test('System: config edits keep any JSON object intact apart from the patched paths (property)', () => {
  const log = quietLog();
  fc.assert(
    fc.property(fc.dictionary(fc.string().filter((k) => !['agents', 'gateway', 'tools', '__proto__'].includes(k)), fc.jsonValue()), (extra) => {
      const config = structuredClone(extra) as Record<string, unknown>;
      applyConfigPatch(config, { model: 'm/x', exec: { ask: 'off' }, agentModel: { agentId: 'a1', model: 'p/q' } }, log);
      for (const [k, v] of Object.entries(extra)) assert.deepEqual(config[k], v);
    }),
  );
});

void test('System: provider table: 13 providers, unique ids and flags; unmapped names follow the spec', () => {
  assert.equal(PROVIDERS.length, 13);
  assert.equal(new Set(PROVIDERS.map((p) => p.id)).size, 13);
  assert.equal(new Set(PROVIDERS.map((p) => p.flag)).size, 13);
  assert.deepEqual(PROVIDERS.filter((p) => p.keyless).map((p) => p.id), ['ollama']);
  for (const p of PROVIDERS) assert.ok(p.defaultModel.startsWith(`${p.id}/`), p.id);
  assert.equal(configureEnvVar('mycorp'), 'CUSTOM_API_KEY');
  assert.equal(apiKeysEnvVar('my-corp'), 'MY_CORP_API_KEY');
  assert.equal(apiKeysEnvVar('Anthropic'), 'ANTHROPIC_API_KEY');
  assert.equal(defaultModelFor('mycorp'), 'mycorp/default');
});

// Keys that name JavaScript's object machinery, mixed with ordinary ones.
const trickyKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__', 'isPrototypeOf'),
  fc.string({ maxLength: 8 }),
);
/** A JSON object text whose keys may be any of them (JSON.parse makes each an own key, `__proto__` included). */
const objectText = (value: fc.Arbitrary<unknown>) =>
  fc.uniqueArray(fc.tuple(trickyKey, value), { selector: ([k]) => k, maxLength: 5 })
    .map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`);

/** Every own property of Object.prototype with its value: a change to any of them is pollution. */
const prototypeSnapshot = () => Object.getOwnPropertyNames(Object.prototype).map((k) => [k, Object.getOwnPropertyDescriptor(Object.prototype, k)?.value] as const);

void test('Security (issue 15 #5): config edits with keys such as __proto__ never change Object.prototype, and the written JSON round-trips (property)', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'openclaw.json');
  const log = quietLog();
  const before = prototypeSnapshot();
  const entriesText = objectText(fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant({ model: 'old/m', name: 'n' }), fc.constant({ model: 'old/m' })));
  fc.assert(
    fc.property(objectText(fc.jsonValue({ maxDepth: 2 })), entriesText, trickyKey, fc.option(fc.constantFrom('p/q', ''), { nil: null }), (topText, entries, agentId, model) => {
      // The user's own keys at the top, and agents.entries holding tricky ids too.
      const top = `${topText.slice(0, -1)}${topText === '{}' ? '' : ','}"agents":{"entries":${entries}}}`;
      writeFileSync(file, top);
      const userKeys = Object.keys(JSON.parse(topText) as object).filter((k) => !['agents', 'gateway', 'tools'].includes(k));
      const written = editGatewayConfig(dir, log, (c) => {
        applyConfigPatch(c, { agentModel: { agentId, model }, exec: { ask: 'off' }, model: 'm/x' }, log);
        return c;
      });
      assert.deepEqual(prototypeSnapshot(), before, 'Object.prototype changed');
      const text = readFileSync(file, 'utf8');
      assert.equal(text, `${JSON.stringify(written, null, 2)}\n`);
      const reread = JSON.parse(text) as Record<string, unknown>;
      assert.equal(`${JSON.stringify(reread, null, 2)}\n`, text, 'the written JSON reads back as written');
      for (const k of userKeys) assert.ok(Object.hasOwn(reread, k), `the user's key ${JSON.stringify(k)} survives`);
      const after = (reread.agents as { entries?: Record<string, unknown> }).entries;
      const entry = after !== undefined && Object.hasOwn(after, agentId) ? (after[agentId] as { model?: unknown }) : undefined;
      if (model) assert.equal(entry?.model, model, 'the model lands on the own entry');
      else assert.equal(entry === undefined || typeof entry !== 'object' || entry === null || !Object.hasOwn(entry, 'model'), true, 'the model is removed');
    }),
    { numRuns: 150 },
  );
});

void test('Security (issue 15 #5): .env edits with names such as __proto__ and constructor round-trip and never change Object.prototype (property)', () => {
  const before = prototypeSnapshot();
  const envName = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString'), name);
  fc.assert(
    fc.property(fc.uniqueArray(fc.tuple(envName, fc.option(value, { nil: null })), { selector: ([k]) => k, maxLength: 5 }), (pairs) => {
      const changes = Object.fromEntries(pairs);
      const parsed = parseDotenv(applyEnvChanges('OTHER=1\n', changes));
      for (const [k, v] of pairs) {
        if (v === null) assert.equal(Object.hasOwn(parsed, k), false, k);
        else assert.equal(Object.hasOwn(parsed, k) ? parsed[k] : undefined, v, k);
      }
      assert.equal(parsed.OTHER, '1');
      assert.deepEqual(prototypeSnapshot(), before, 'Object.prototype changed');
    }),
  );
});

void test('Security (issue 15 #14): the corrupt config\'s copy is a new 0600 file; a symlink planted at its name is not followed', (t) => {
  const dir = tempDir(t);
  const outside = tempDir(t);
  const file = join(dir, 'openclaw.json');
  const now = 1_700_000_000_000;
  const predictable = `${file}.corrupt-${now}`;
  const victim = join(outside, 'victim.txt');
  const dangling = join(outside, 'created-by-svc.txt');
  writeFileSync(victim, 'do not touch\n');
  const log = quietLog();
  for (const [target, text] of [[victim, 'corrupt {'], [dangling, 'corrupt again {']] as const) {
    rmSync(predictable, { force: true });
    symlinkSync(target, predictable);
    writeFileSync(file, text);
    assert.deepEqual(loadConfigForEdit(dir, log, () => now), {});
    assert.equal(readFileSync(victim, 'utf8'), 'do not touch\n', 'an existing target is unchanged');
    assert.equal(existsSync(dangling), false, 'nothing is created through a dangling symlink');
    const picked = readdirSync(dir).filter((n) => n.startsWith(`openclaw.json.corrupt-${now}-`)).map((n) => join(dir, n));
    const copy = picked.find((p) => readFileSync(p, 'utf8') === text);
    assert.ok(copy, 'the copy was kept under another name');
    assert.equal(statSync(copy).mode & 0o777, 0o600);
    assert.ok(log.lines.some((l) => l.includes('kept aside') && l.includes(copy)), 'the log names the copy');
  }
});

void test('Security (issue 15 #18): two processes editing .env at once lose no variable (lock file)', async (t) => {
  const dir = tempDir(t);
  const count = 100;
  await raceWriters('env', dir, ['a', 'b'], count);
  const env = parseDotenv(readFileSync(join(dir, '.env'), 'utf8'));
  const missing = ['A', 'B'].flatMap((p) => Array.from({ length: count }, (_, i) => `${p}_${i}`)).filter((k) => env[k] === undefined);
  assert.deepEqual(missing, []);
  assert.deepEqual(readdirSync(dir), ['.env'], 'no lock or temp file left');
});

void test('Security (issue 15 #18): two processes editing openclaw.json at once lose no entry (lock file)', async (t) => {
  const dir = tempDir(t);
  const count = 100;
  await raceWriters('config', dir, ['a', 'b'], count);
  const entries = (JSON.parse(readFileSync(join(dir, 'openclaw.json'), 'utf8')) as { agents: { entries: Record<string, unknown> } }).agents.entries;
  const missing = ['a', 'b'].flatMap((p) => Array.from({ length: count }, (_, i) => `${p}${i}`)).filter((k) => !Object.hasOwn(entries, k));
  assert.deepEqual(missing, []);
  assert.deepEqual(readdirSync(dir), ['openclaw.json'], 'no lock or temp file left');
});
