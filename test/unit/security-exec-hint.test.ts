// Issue 15 #6: the start-up hint. With the access gate off and a gateway
// config that leaves the exec tool on for some agent, svc prints one line
// recommending STUDIO_ACCESS_TOKEN; otherwise nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT_EXEC_HINT, agentExecHint, gatewayExecEnabled } from '../../shared/security/agent-exec-hint.ts';

void test('Security (issue 15 #6): the exec hint appears only with the gate off and exec on for some agent', () => {
  assert.equal(agentExecHint({ gateOn: false, gatewayConfig: {} }), AGENT_EXEC_HINT);
  assert.match(AGENT_EXEC_HINT, /STUDIO_ACCESS_TOKEN/);
  assert.ok(!AGENT_EXEC_HINT.includes('\n'), 'one line');
  assert.equal(agentExecHint({ gateOn: true, gatewayConfig: {} }), null, 'the gate is on');
  assert.equal(agentExecHint({ gateOn: false, gatewayConfig: null }), null, 'no gateway config');
});

void test('Security (issue 15 #6): reading exec from openclaw.json (on by default; security deny, deny lists and narrow profiles turn it off)', () => {
  const on: unknown[] = [
    {},
    { tools: { profile: 'coding' } },
    { tools: { profile: 'full', exec: { security: 'allowlist' } } },
    { tools: { profile: 'messaging', allow: ['exec'] } },
    { tools: { profile: 'minimal', alsoAllow: ['group:runtime'] } },
    { tools: { allow: ['read'] } }, // an allow list is not read as removing exec (the gateway may ignore it)
    { tools: { deny: ['browser'] } },
    // One agent of several is enough; the unlisted main agent follows the globals.
    { tools: { exec: { security: 'deny' } }, agents: { entries: { main: {}, coder: { tools: { exec: { security: 'full' } } } } } },
    { agents: { entries: { researcher: { tools: { deny: ['exec'] } } } } },
    { tools: { profile: 'messaging' }, agents: { list: [{ id: 'main' }, { id: 'dev', tools: { profile: 'coding' } }] } },
  ];
  const off: unknown[] = [
    { tools: { exec: { security: 'deny' } } },
    { tools: { deny: ['exec'] } },
    { tools: { deny: ['EXEC'] } },
    { tools: { deny: ['group:runtime'] } },
    { tools: { deny: ['*'] } },
    { tools: { deny: ['ex*'] } },
    { tools: { profile: 'messaging' } },
    { tools: { profile: 'minimal', allow: ['read'] } },
    // Deny wins: an agent's own settings cannot bring back what the global deny removed.
    { tools: { deny: ['exec'] }, agents: { entries: { main: { tools: { exec: { security: 'full' } } } } } },
    { agents: { entries: { main: { tools: { profile: 'minimal' } }, helper: { tools: { exec: { security: 'deny' } } } } } },
    { agents: { list: [{ id: 'main', tools: { deny: ['group:runtime'] } }] } },
    'not an object',
  ];
  for (const c of on) assert.equal(gatewayExecEnabled(c), true, JSON.stringify(c));
  for (const c of off) assert.equal(gatewayExecEnabled(c), false, JSON.stringify(c));
});
