// writeGateway (shared/gateway-wiring/gateway-write.ts) when the gateway
// refuses svc's config.patch. A refusal wrote nothing, so the `.env` svc
// wrote first goes back; but a patch refused because the config changed
// meanwhile (someone else wrote it while svc read it) is to be tried again,
// and its `.env` variables stay, so the retried config finds them. The
// gateway is a recorded call function; the files are real, in a temp folder.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayWriteError, writeGateway } from '../../shared/gateway-wiring/gateway-write.ts';
import type { GatewayRead } from '../../shared/gateway-wiring/gateway-read.ts';
import { readGatewayEnv } from '../../shared/settings/gateway-files.ts';

const quiet = { warn: () => undefined, info: () => undefined };

function stateDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-gw-write-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'openclaw.json'), '{}\n');
  writeFileSync(join(dir, '.env'), 'KEEP=1\n');
  return dir;
}

async function refusedWith(t: TestContext, refusal: string): Promise<{ error: unknown; env: Record<string, string>; patches: number }> {
  const dir = stateDir(t);
  let patches = 0;
  const call = async (method: string) => {
    if (method === 'config.get') return { hash: 'h' };
    patches++;
    throw new Error(refusal);
  };
  const read: GatewayRead = { via: 'gateway', configPath: join(dir, 'openclaw.json'), config: {}, raw: '{}', stateDir: dir, env: { KEEP: '1' }, agentIds: [] };
  const error = await writeGateway({ gateway: { connected: () => true, call }, log: quiet }, read, [{ path: ['models', 'providers', 'svc-a', 'apiKey'], value: '${SVC_MODEL_TOKEN_A}' }], { SVC_MODEL_TOKEN_A: 'tok' }).then(
    () => null,
    (err: unknown) => err,
  );
  return { error, env: readGatewayEnv(dir), patches };
}

void test('Gateway wiring: a config.patch refused outright puts the .env back', async (t) => {
  const r = await refusedWith(t, 'config.patch would remove entries from array path(s)');
  assert.ok(r.error instanceof GatewayWriteError && r.error.where === 'config', String(r.error));
  assert.deepEqual(r.env, { KEEP: '1' });
});

void test('Gateway wiring: a config.patch refused as changed since last load is tried three times and leaves the .env as written', async (t) => {
  const r = await refusedWith(t, 'config changed since last load; re-run config.get and retry');
  assert.ok(r.error instanceof GatewayWriteError && r.error.where === 'config', String(r.error));
  assert.equal(r.patches, 3);
  assert.deepEqual(r.env, { KEEP: '1', SVC_MODEL_TOKEN_A: 'tok' });
});

/** A gateway reached over its socket, recorded: serves config.get, takes config.patch, reloads its secrets. */
function recorded(dir: string, patch: (method: string) => void = () => undefined) {
  const calls: string[] = [];
  const call = async (method: string) => {
    calls.push(method);
    if (method === 'config.get') return { hash: 'h', path: join(dir, 'openclaw.json') };
    patch(method);
    return {};
  };
  return { calls, reach: { gateway: { connected: () => true, call }, log: quiet } };
}

void test('Gateway wiring: a write after a round that left .env pending makes the gateway read its .env; a write naming a variable it has read does not', async (t) => {
  const dir = stateDir(t);
  writeFileSync(join(dir, '.env'), 'KEEP=1\nSVC_MODEL_TOKEN_A=tok\n');
  const read: GatewayRead = { via: 'gateway', configPath: join(dir, 'openclaw.json'), config: {}, raw: '{}', stateDir: dir, env: { KEEP: '1', SVC_MODEL_TOKEN_A: 'tok' }, agentIds: [] };
  const ops = [{ path: ['models', 'providers', 'svc-a', 'apiKey'], value: '${SVC_MODEL_TOKEN_A}' }];
  const pending = recorded(dir);
  const out = await writeGateway(pending.reach, read, ops, {}, true);
  assert.deepEqual(pending.calls, ['config.get', 'config.patch', 'config.get', 'secrets.reload']);
  assert.equal(out.envPending, false);

  // A reload refreshes the gateway's model runtime under its running sessions: not asked for without cause.
  const taken = recorded(dir);
  assert.equal((await writeGateway(taken.reach, read, ops, {}, false)).envPending, false);
  assert.deepEqual(taken.calls, ['config.get', 'config.patch']);
});

void test('Gateway wiring: a round with nothing to write still asks the gateway to read a .env left pending, until it does', async (t) => {
  const dir = stateDir(t);
  const read: GatewayRead = { via: 'gateway', configPath: join(dir, 'openclaw.json'), config: {}, raw: '{}', stateDir: dir, env: { KEEP: '1' }, agentIds: [] };
  const failing = recorded(dir, (method) => {
    if (method === 'secrets.reload') throw new Error('gateway busy');
  });
  assert.equal((await writeGateway(failing.reach, read, [], {}, true)).envPending, true);
  assert.deepEqual(failing.calls, ['config.get', 'secrets.reload']);

  const ok = recorded(dir);
  assert.equal((await writeGateway(ok.reach, read, [], {}, true)).envPending, false);
  assert.deepEqual(ok.calls, ['config.get', 'secrets.reload']);

  const idle = recorded(dir);
  assert.equal((await writeGateway(idle.reach, read, [], {}, false)).envPending, false);
  assert.deepEqual(idle.calls, [], 'nothing pending, nothing asked');
});
