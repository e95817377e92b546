// The secrets vault (spec "State directory / secrets vault"): layout and
// modes, master-key override encodings, failing closed, runtime-key
// resolution order, the boot sentinel and the permissions health check.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc } from '../helpers/fc.ts';
import { svcPaths, type SvcPaths } from '../../shared/paths.ts';
import { createVault, decodeMasterKey, resolveRuntimeKey, type VaultOptions } from '../../shared/vault/index.ts';

const S = 'State directory / secrets vault:';
const SECRET = 'sk-live-7c1e0f9b2a64d3e8';
const posix = process.platform !== 'win32';

function setup(t: TestContext): { dir: string; paths: SvcPaths } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-vault-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const home = join(dir, 'home');
  return { dir, paths: svcPaths({ svcHome: home, dbPath: join(home, 'svc.db') }) };
}

const vaultAt = (paths: SvcPaths, override: string | null = null, extra: Partial<VaultOptions> = {}) =>
  createVault({ paths, masterKeyOverride: override, ...extra });
const mode = (p: string) => statSync(p).mode & 0o777;
const readJson = (p: string): unknown => JSON.parse(readFileSync(p, 'utf8'));
const thrownMessage = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  assert.fail('expected a throw');
};

void test(`${S} set/get/delete/list round trip, sealed on disk as iv/tag/ciphertext`, (t) => {
  const { paths } = setup(t);
  const vault = vaultAt(paths);
  assert.equal(vault.get('OPENAI_API_KEY'), null);
  assert.equal(vault.vaultPresent(), false, 'a read creates nothing');
  vault.set('OPENAI_API_KEY', SECRET);
  vault.set('__proto__', 'odd but legal');
  vault.set('EMPTY', '');
  assert.equal(vault.get('OPENAI_API_KEY'), SECRET);
  assert.equal(vault.get('__proto__'), 'odd but legal');
  assert.equal(vault.get('EMPTY'), '');
  assert.equal(vaultAt(paths).get('OPENAI_API_KEY'), SECRET, 'a new vault object reads it from disk');
  assert.deepEqual(vault.list(), ['EMPTY', 'OPENAI_API_KEY', '__proto__']);
  assert.equal(vault.delete('EMPTY'), true);
  assert.equal(vault.delete('EMPTY'), false);
  assert.equal(vault.get('EMPTY'), null);
  assert.equal(vault.vaultPresent(), true);

  const text = readFileSync(paths.runtimeKeysFile, 'utf8');
  assert.ok(!text.includes(SECRET), 'plaintext is not on disk');
  const stored = readJson(paths.runtimeKeysFile) as Record<string, Record<string, string>>;
  assert.deepEqual(Object.keys(stored).sort(), ['OPENAI_API_KEY', '__proto__']);
  const entry = stored.OPENAI_API_KEY ?? assert.fail('entry missing');
  assert.deepEqual(Object.keys(entry).sort(), ['ciphertext', 'iv', 'tag']);
  assert.equal(Buffer.from(entry.iv ?? '', 'base64').length, 12);
  assert.equal(Buffer.from(entry.tag ?? '', 'base64').length, 16);
  assert.equal(Buffer.from(readFileSync(paths.masterKeyFile, 'utf8'), 'base64').length, 32);
  assert.throws(() => vault.set('not a name', SECRET), (err: Error) => !err.message.includes(SECRET));
});

void test(`${S} secrets/ is 0700 and master.key, runtime-keys.json, boot-sentinel.json are 0600, no temp files`, (t) => {
  if (!posix) return t.skip('POSIX modes only');
  const { paths } = setup(t);
  const vault = vaultAt(paths);
  vault.set('A', '1');
  vault.set('B', '2');
  assert.equal(mode(paths.secretsDir), 0o700);
  assert.equal(mode(paths.masterKeyFile), 0o600);
  assert.equal(mode(paths.runtimeKeysFile), 0o600);
  assert.equal(mode(paths.bootSentinelFile), 0o600);
  assert.deepEqual(readdirSync(paths.secretsDir).sort(), ['boot-sentinel.json', 'master.key', 'runtime-keys.json']);
});

void test(`${S} the master-key override is accepted as 64 hex, base64 or 32 raw characters`, (t) => {
  const { paths } = setup(t);
  const key = randomBytes(32);
  const forms = { hex: key.toString('hex'), base64: key.toString('base64'), base64url: key.toString('base64url') };
  for (const [form, text] of Object.entries(forms)) assert.deepEqual(decodeMasterKey(text), key, form);
  assert.deepEqual(decodeMasterKey(` ${forms.hex.toUpperCase()}\n`), key, 'hex: case and surrounding space');
  const raw = 'correct-horse-battery-staple-32!';
  assert.deepEqual(decodeMasterKey(raw), Buffer.from(raw, 'utf8'));

  // Written under one encoding, read under another: the same 32 bytes.
  vaultAt(paths, forms.hex).set('K', SECRET);
  assert.equal(vaultAt(paths, forms.base64).get('K'), SECRET);
  assert.equal(vaultAt(paths, forms.hex).masterKeyOk(), true);
  assert.throws(() => readFileSync(paths.masterKeyFile), { code: 'ENOENT' }, 'an override never writes master.key');
  const rawVault = vaultAt(paths, raw);
  rawVault.set('R', SECRET);
  assert.equal(rawVault.get('R'), SECRET);
  assert.equal(vaultAt(paths, forms.hex).get('R'), null, 'raw and hex keys differ');
});

void test(`${S} an invalid override throws a message without the key; reads fail closed`, (t) => {
  const { paths } = setup(t);
  const bad = [
    'tooShortKeyValue-q7',
    'ab'.repeat(31) + 'a', // 63 hex characters
    'Q'.repeat(33),
    randomBytes(31).toString('base64'),
    randomBytes(33).toString('base64'),
    'é'.repeat(32), // 32 characters but 64 bytes
    '',
  ];
  for (const value of bad) {
    const message = thrownMessage(() => decodeMasterKey(value));
    assert.match(message, /SVC_SECRETS_MASTER_KEY/);
    if (value !== '') assert.ok(!message.includes(value), `message leaks ${JSON.stringify(value)}`);
    const vault = vaultAt(paths, value);
    assert.equal(thrownMessage(() => vault.set('K', SECRET)), message);
    assert.equal(vault.get('K'), null);
    assert.equal(vault.masterKeyOk(), false);
  }
  assert.equal(vaultAt(paths).vaultPresent(), false, 'a failed set leaves nothing behind');
});

void test(`${S} a wrong, rotated or lost key reads as null, never garbage`, (t) => {
  const { paths } = setup(t);
  const keyA = randomBytes(32).toString('hex');
  vaultAt(paths, keyA).set('K', SECRET);
  const withB = vaultAt(paths, randomBytes(32).toString('hex'));
  assert.equal(withB.get('K'), null);
  assert.deepEqual(withB.lookup('K'), { status: 'locked' });
  assert.deepEqual(withB.list(), ['K'], 'names stay listable');
  assert.equal(vaultAt(paths, keyA).get('K'), SECRET, 'the right key still reads it');

  // Key file rotated under a vault that has not loaded it yet.
  const other = setup(t).paths;
  vaultAt(other).set('K', SECRET);
  writeFileSync(other.masterKeyFile, randomBytes(32).toString('base64'));
  assert.equal(vaultAt(other).get('K'), null);

  // Tampered ciphertext fails GCM authentication.
  const stored = readJson(paths.runtimeKeysFile) as Record<string, { ciphertext: string }>;
  const ct = Buffer.from(stored.K?.ciphertext ?? '', 'base64');
  ct[0] = (ct[0] ?? 0) ^ 1;
  writeFileSync(paths.runtimeKeysFile, JSON.stringify({ K: { ...stored.K, ciphertext: ct.toString('base64') } }));
  assert.equal(vaultAt(paths, keyA).get('K'), null);

  // Lost key file: reads fail closed and a write refuses to orphan what exists.
  unlinkSync(other.masterKeyFile);
  const lost = vaultAt(other);
  assert.equal(lost.get('K'), null);
  assert.equal(lost.masterKeyOk(), false);
  assert.throws(() => lost.set('K', 'new'), /master\.key is missing but sealed secrets exist/);
});

void test(`${S} a corrupt runtime-keys.json reads as null and is told apart from absent`, (t) => {
  const { paths } = setup(t);
  const vault = vaultAt(paths);
  assert.deepEqual(vault.lookup('K'), { status: 'missing' });
  vault.set('K', SECRET);
  for (const text of ['{"K": {"iv": "', '[]', 'null', '{"K": {"iv": 1}}']) {
    writeFileSync(paths.runtimeKeysFile, text);
    const told: Error[] = [];
    const v = vaultAt(paths, null, { onCorrupt: (err) => told.push(err) });
    assert.equal(v.get('K'), null, text);
    assert.deepEqual(v.lookup('K'), { status: 'corrupt' });
    assert.deepEqual(v.list(), []);
    assert.equal(told.length, 3);
    assert.ok(told.every((e) => e.message.includes('runtime-keys.json') && !e.message.includes(text)));
    assert.throws(() => v.set('OTHER', 'x'), /runtime-keys\.json/);
    assert.equal(readFileSync(paths.runtimeKeysFile, 'utf8'), text, 'a corrupt file is not overwritten');
  }
});

void test(`${S} a vault that has read a key reads the new value after its own write, another process's write, an in-place edit and a removal`, (t) => {
  const { paths } = setup(t);
  const key = randomBytes(32).toString('hex');
  const endpoint = vaultAt(paths, key);
  const cli = vaultAt(paths, key);
  endpoint.set('K', 'sk-first-value-1');
  assert.equal(endpoint.get('K'), 'sk-first-value-1');
  assert.equal(endpoint.get('K'), 'sk-first-value-1', 'read again, unchanged');
  // Another writer (the CLI, its own vault object), a value of the same length, at once.
  cli.set('K', 'sk-other-value-2');
  assert.equal(endpoint.get('K'), 'sk-other-value-2');
  endpoint.set('K', 'sk-third-value-3');
  assert.equal(endpoint.get('K'), 'sk-third-value-3', 'its own write');
  // Edited in place (same inode): the tampered entry fails closed.
  const stored = readJson(paths.runtimeKeysFile) as Record<string, { ciphertext: string }>;
  const ct = Buffer.from(stored.K?.ciphertext ?? '', 'base64');
  ct[0] = (ct[0] ?? 0) ^ 1;
  writeFileSync(paths.runtimeKeysFile, JSON.stringify({ K: { ...stored.K, ciphertext: ct.toString('base64') } }));
  assert.deepEqual(endpoint.lookup('K'), { status: 'locked' });
  unlinkSync(paths.runtimeKeysFile);
  assert.deepEqual(endpoint.lookup('K'), { status: 'missing' });
});

void test(`${S} runtime keys resolve from env, then vault, then the gateway env file`, (t) => {
  const { paths } = setup(t);
  const vault = vaultAt(paths);
  vault.set('BOTH', 'from-vault');
  let gatewayReads = 0;
  const gateway = { BOTH: 'from-gateway', ONLY_GATEWAY: 'gw', EMPTY_ENV: 'gw-empty' };
  const readGatewayEnv = () => {
    gatewayReads++;
    return gateway;
  };
  const envVars = new Map([['BOTH', 'from-env'], ['EMPTY_ENV', '']]);
  const env = (name: string) => envVars.get(name);
  const resolve = (name: string, e = env) => resolveRuntimeKey(name, { env: e, vault, readGatewayEnv });

  assert.deepEqual(resolve('BOTH'), { value: 'from-env', source: 'env' });
  assert.equal(gatewayReads, 0, 'the gateway file is not read when the environment has it');
  assert.deepEqual(resolve('BOTH', () => undefined), { value: 'from-vault', source: 'vault' });
  assert.deepEqual(resolve('ONLY_GATEWAY'), { value: 'gw', source: 'gateway-env' });
  assert.deepEqual(resolve('EMPTY_ENV'), { value: 'gw-empty', source: 'gateway-env' }, 'empty counts as unset');
  assert.equal(resolve('NOWHERE'), null);
  assert.equal(resolve('constructor'), null, 'prototype names are not values');
});

void test(`${S} boot sentinel: absent, then ok, then mismatch under another key`, (t) => {
  const { paths } = setup(t);
  const keyA = randomBytes(32).toString('base64');
  const vault = vaultAt(paths, keyA);
  assert.deepEqual(vault.checkBootSentinel(), { state: 'absent' });
  vault.ensureBootSentinel();
  assert.deepEqual(vault.checkBootSentinel(), { state: 'ok' });
  if (posix) assert.equal(mode(paths.bootSentinelFile), 0o600);
  const first = readFileSync(paths.bootSentinelFile, 'utf8');
  vault.ensureBootSentinel();
  assert.equal(readFileSync(paths.bootSentinelFile, 'utf8'), first, 'written once only');

  const withB = vaultAt(paths, randomBytes(32).toString('base64'));
  assert.deepEqual(withB.checkBootSentinel(), { state: 'mismatch' });
  withB.ensureBootSentinel();
  assert.deepEqual(withB.checkBootSentinel(), { state: 'mismatch' }, 'a mismatch is not papered over');
  writeFileSync(paths.bootSentinelFile, '{ not json');
  assert.deepEqual(vaultAt(paths, keyA).checkBootSentinel(), { state: 'mismatch' });

  const fresh = setup(t).paths;
  vaultAt(fresh).set('K', SECRET);
  assert.deepEqual(vaultAt(fresh).checkBootSentinel(), { state: 'ok' }, 'the first set writes the sentinel');
});

void test(`${S} masterKeyOk: fresh vault, key file, wrong-length key file`, (t) => {
  const { paths } = setup(t);
  assert.equal(vaultAt(paths).masterKeyOk(), true, 'no key yet and nothing sealed: one is made on first use');
  vaultAt(paths).set('K', SECRET);
  assert.equal(vaultAt(paths).masterKeyOk(), true);
  writeFileSync(paths.masterKeyFile, randomBytes(16).toString('base64'));
  const short = vaultAt(paths);
  assert.equal(short.masterKeyOk(), false);
  assert.throws(() => short.set('K', SECRET), /master\.key is not base64 of 32 bytes/);
});

void test(`${S} vaultPerms flags a 0644 master.key and a 0755 secrets dir, skips a fresh install`, (t) => {
  const { dir, paths } = setup(t);
  assert.deepEqual(vaultAt(paths, null, { platform: 'win32' }).checkVaultPerms([]).skipped, true);
  if (!posix) return t.skip('POSIX modes only');
  const vault = vaultAt(paths);
  const fresh = vault.checkVaultPerms([paths.deviceIdentityFile]);
  assert.equal(fresh.skipped, true);
  assert.match(fresh.reason ?? '', /fresh install/);
  assert.deepEqual(fresh.problems, []);

  vault.set('K', SECRET);
  const identity = join(dir, 'home', 'proxy-device-identity.json');
  assert.deepEqual(vault.checkVaultPerms([identity]), { skipped: false, problems: [] }, 'absent extra file is fine');
  writeFileSync(identity, '{}', { mode: 0o600 });
  assert.deepEqual(vault.checkVaultPerms([identity]).problems, []);

  chmodSync(paths.masterKeyFile, 0o644);
  chmodSync(paths.secretsDir, 0o755);
  chmodSync(identity, 0o644);
  assert.deepEqual(vault.checkVaultPerms([identity]).problems.sort(), [
    `${paths.masterKeyFile} is 0644, expected 0600`,
    `${paths.secretsDir} is 0755, expected 0700`,
    `${identity} is 0644, expected 0600`,
  ].sort());
});

void test(`${S} property: any unicode string round-trips through set and get`, (t) => {
  const { paths } = setup(t);
  const vault = vaultAt(paths, randomBytes(32).toString('hex'));
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (value) => {
      vault.set('PROP', value);
      return vault.get('PROP') === value;
    }),
    { numRuns: 100 },
  );
});
