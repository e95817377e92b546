// Launcher version comparison (spec "Command-line launcher", default action
// step 3): same or newer attaches, older offers a restart, unreadable or
// 0.0.0-prefixed fails open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fc } from '../helpers/fc.ts';
import { compareVersions, parseSemver, versionVerdict } from '../../shared/launcher/index.ts';

void test('Command-line launcher: compareVersions orders semantic versions', () => {
  assert.equal(compareVersions('0.3.1', '0.3.1'), 0);
  assert.equal(compareVersions('0.3.0', '0.3.1'), -1);
  assert.equal(compareVersions('0.10.0', '0.9.9'), 1);
  assert.equal(compareVersions('1.0.0', '0.99.99'), 1);
  assert.equal(compareVersions('v1.2.3', '1.2.3'), 0);
  assert.equal(compareVersions('1.2.3+build.7', '1.2.3'), 0);
  assert.equal(compareVersions('1.0.0-rc.1', '1.0.0'), -1);
  assert.equal(compareVersions('1.0.0-alpha', '1.0.0-alpha.1'), -1);
  assert.equal(compareVersions('1.0.0-alpha.2', '1.0.0-alpha.10'), -1);
  assert.equal(compareVersions('1.0.0-alpha.1', '1.0.0-beta'), -1);
  assert.equal(compareVersions('1.0.0-1', '1.0.0-alpha'), -1);
  assert.equal(compareVersions('not-a-version', '1.0.0'), null);
  assert.equal(compareVersions('1.0', '1.0.0'), null);
});

void test('Command-line launcher: compareVersions is antisymmetric and reflexive (property)', () => {
  const part = fc.integer({ min: 0, max: 50 });
  const pre = fc.option(fc.array(fc.oneof(fc.constantFrom('alpha', 'beta', 'rc'), fc.nat(20).map(String)), { minLength: 1, maxLength: 3 }));
  const version = fc.tuple(part, part, part, pre).map(([a, b, c, p]) => `${a}.${b}.${c}${p ? `-${p.join('.')}` : ''}`);
  fc.assert(
    fc.property(version, version, (a, b) => {
      assert.ok(parseSemver(a));
      assert.equal(compareVersions(a, a), 0);
      assert.equal(compareVersions(a, b), -(compareVersions(b, a) as number) || 0);
    }),
    { verbose: true },
  );
});

void test('Command-line launcher: versionVerdict attaches unless the running server is older', () => {
  assert.equal(versionVerdict('0.3.1', '0.3.1'), 'attach');
  assert.equal(versionVerdict('0.4.0', '0.3.1'), 'attach');
  assert.equal(versionVerdict('0.3.0', '0.3.1'), 'older');
  assert.equal(versionVerdict('0.3.1-rc.1', '0.3.1'), 'older');
  // Fail open: unreadable, unknown or a 0.0.0 development build.
  assert.equal(versionVerdict(null, '0.3.1'), 'attach');
  assert.equal(versionVerdict('garbage', '0.3.1'), 'attach');
  assert.equal(versionVerdict('0.0.0', '0.3.1'), 'attach');
  assert.equal(versionVerdict('0.0.0-dev', '0.3.1'), 'attach');
  assert.equal(versionVerdict('0.2.0', 'unknown'), 'attach');
});
