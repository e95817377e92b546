// Spec "Tools broker and MCP", session binding: memory binds scopeTeamId,
// scopeAgentId, scopeTenantId as the visibility scope and the tag given to
// saves; with none present the session is unbound and tool arguments apply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fc } from '../helpers/fc.ts';
import { inScope, readScope, saveScope, sessionScope, SCOPE_KEYS, type MemoryScope } from '../../shared/memory/index.ts';

const P = 'Tools broker and MCP → memory:';

void test(`${P} the binding is read from scopeTeamId, scopeAgentId, scopeTenantId; blank values are absent`, () => {
  assert.deepEqual(sessionScope({}), { bound: false, scope: {} });
  assert.deepEqual(sessionScope({ scopeTeamId: '  ', other: 'x' }), { bound: false, scope: {} });
  assert.deepEqual(sessionScope({ scopeTeamId: 'T1' }), { bound: true, scope: { teamId: 'T1' } });
  assert.deepEqual(sessionScope({ scopeAgentId: 'A', scopeTenantId: 'X' }), { bound: true, scope: { agentId: 'A', tenantId: 'X' } });
});

void test(`${P} an unbound session takes its scope from the arguments, and everything without them`, () => {
  const s = sessionScope({});
  assert.deepEqual(readScope(s, {}), { ok: true, scope: {} });
  assert.deepEqual(readScope(s, { teamId: 'T2', agentId: ' ' }), { ok: true, scope: { teamId: 'T2' } });
  assert.deepEqual(saveScope(s, { teamId: 'T2', tenantId: 'X' }), { ok: true, scope: { teamId: 'T2', tenantId: 'X' } });
  assert.deepEqual(saveScope(s, {}), { ok: true, scope: {} });
});

void test(`${P} a bound session refuses an argument naming another value, accepts the same one, and tags saves with the binding only`, () => {
  const s = sessionScope({ scopeTeamId: 'T1' });
  assert.deepEqual(readScope(s, {}), { ok: true, scope: { teamId: 'T1' } });
  assert.deepEqual(readScope(s, { teamId: 'T1' }), { ok: true, scope: { teamId: 'T1' } });
  const other = readScope(s, { teamId: 'T2' });
  assert.equal(other.ok, false);
  assert.match(other.ok ? '' : other.error, /bound.*teamId/);
  assert.deepEqual(readScope(s, { agentId: 'A' }), { ok: true, scope: { teamId: 'T1', agentId: 'A' } }, 'an open key may narrow a read');
  assert.deepEqual(saveScope(s, {}), { ok: true, scope: { teamId: 'T1' } });
  assert.deepEqual(saveScope(s, { teamId: 'T1' }), { ok: true, scope: { teamId: 'T1' } });
  assert.equal(saveScope(s, { teamId: 'T2' }).ok, false);
  assert.equal(saveScope(s, { agentId: 'someone-else' }).ok, false, 'a save cannot claim an identity the binding does not give');
});

void test(`${P} arguments never widen a bound scope (property)`, () => {
  const id = fc.oneof(fc.constantFrom('T1', 'T2', 'A', 'B', 'X', '', ' '), fc.string({ maxLength: 6 }));
  const scopeArb = fc.record({ teamId: id, agentId: id, tenantId: id }, { requiredKeys: [] });
  const rowArb = fc.record({ teamId: fc.option(id, { nil: null }), agentId: fc.option(id, { nil: null }), tenantId: fc.option(id, { nil: null }) });
  fc.assert(
    fc.property(scopeArb, scopeArb, rowArb, (bindingScope: MemoryScope, args: MemoryScope, row) => {
      const binding = { scopeTeamId: bindingScope.teamId, scopeAgentId: bindingScope.agentId, scopeTenantId: bindingScope.tenantId };
      const s = sessionScope(binding);
      if (!s.bound) return;
      const read = readScope(s, args);
      // Whatever the arguments, a readable row lies within the binding.
      if (read.ok && inScope(row, read.scope)) assert.ok(inScope(row, s.scope));
      const save = saveScope(s, args);
      if (save.ok) assert.deepEqual(save.scope, s.scope, 'a save is tagged with exactly the binding');
      for (const k of SCOPE_KEYS) {
        const bound = s.scope[k];
        if (read.ok && bound !== undefined) assert.equal(read.scope[k], bound);
      }
    }),
    { numRuns: 2000 },
  );
});
