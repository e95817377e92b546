// Spec "System (host and gateway)": the gateway's .env and openclaw.json are
// edited read-modify-write, keeping everything svc did not set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseDotenv } from '../../shared/settings/gateway-files.ts';
import { applyEnvChanges, formatEnvValue, updateGatewayEnv } from '../../shared/gateway/env-file.ts';
import { applyConfigPatch, editGatewayConfig, type ConfigLog } from '../../shared/gateway/config-file.ts';
import { apiKeysEnvVar, configureEnvVar, defaultModelFor, PROVIDERS } from '../../shared/gateway/providers.ts';

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
