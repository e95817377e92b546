// The agent-token store's verify keeps live bindings in memory (the model
// endpoint verifies one per call): what a caller sees must not change with
// it. A revoked token is refused from the next verify, whichever way it was
// revoked; an unknown one is refused every time.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentTokenStore } from '../../shared/agent-tokens/index.ts';
import { openDatabase, type Db } from '../../shared/db/open.ts';

function tempDb(t: TestContext): Db {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tokens-'));
  const db = openDatabase(join(dir, 'svc.db'));
  t.after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return db;
}

void test('Agent tokens: a verified token stays verified until it is revoked by id or by agent; another purpose and an unknown token never verify', (t) => {
  const store = createAgentTokenStore(tempDb(t));
  const a = store.mint('model', { agentId: 'alice' });
  const b = store.mint('model', { agentId: 'bob' });
  const m = store.mint('mcp', { agentId: 'alice' });
  assert.equal(store.verify('model', a.token)?.agentId, 'alice');
  assert.equal(store.verify('model', a.token)?.id, a.binding.id, 'the second verify answers the same');
  assert.equal(store.verify('mcp', a.token), null, 'not for another purpose');
  assert.equal(store.verify('model', `${a.token.slice(0, -1)}${a.token.endsWith('A') ? 'B' : 'A'}`), null, 'a token one character off');

  assert.equal(store.revoke(a.binding.id), true);
  assert.equal(store.verify('model', a.token), null, 'revoked by id: refused at once');
  assert.equal(store.verify('model', b.token)?.agentId, 'bob');
  assert.equal(store.verify('mcp', m.token)?.agentId, 'alice');

  assert.equal(store.revokeAgent('model', 'bob'), 1);
  assert.equal(store.verify('model', b.token), null, 'revoked with its agent: refused at once');
  assert.equal(store.verify('mcp', m.token)?.agentId, 'alice', 'another purpose of the same agent is untouched');
});
