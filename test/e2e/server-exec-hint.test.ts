// Issue 15 #6: svc prints the exec hint at start when the access gate is off
// and the gateway's openclaw.json gives agents exec; with the gate on it does
// not. The output is read after the server stopped, so nothing is missed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_EXEC_HINT } from '../../shared/security/agent-exec-hint.ts';
import { removeHome, startServer, tempHome } from '../helpers/server.ts';

async function outputOf(env: Record<string, string>): Promise<string> {
  const home = tempHome('svc-exec-hint-');
  try {
    mkdirSync(join(home, 'gateway-state'), { recursive: true });
    writeFileSync(join(home, 'gateway-state', 'openclaw.json'), JSON.stringify({ tools: { profile: 'coding' } }));
    const srv = await startServer({ home, env });
    const code = await srv.stop();
    // null: ended by a signal, not by its own shutdown; the output says how far it got.
    assert.equal(code, 0, `svc stopped with ${code} (signal ${srv.proc.signalCode}):\n${srv.output()}`);
    return srv.output();
  } finally {
    removeHome(home);
  }
}

void test('Security (issue 15 #6): svc prints one line recommending STUDIO_ACCESS_TOKEN when the gate is off and gateway agents have exec', async () => {
  const open = await outputOf({});
  assert.equal(open.split('\n').filter((l) => l === AGENT_EXEC_HINT).length, 1, open);
  const gated = await outputOf({ STUDIO_ACCESS_TOKEN: 'gate-token-0123456789' });
  assert.match(gated, /ready on/);
  assert.ok(!gated.includes('STUDIO_ACCESS_TOKEN to turn the gate on'), gated);
});
