// The gateway protocol pieces that need no gateway: the v3 signature payload,
// the device identity file, frame parsing, and what the proxy does to a
// browser's connect and to the frames it forwards. The handshake itself is
// proven against the real gateway in test/gateway/gateway.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fc } from '../helpers/fc.ts';
import { buildConnectParams, SVC_CAPS, SVC_SCOPES } from '../../shared/gateway/connect-params.ts';
import { loadOrCreateDeviceIdentity } from '../../shared/gateway/device-identity.ts';
import { parseInbound } from '../../shared/gateway/protocol.ts';
import { signaturePayloadV3 } from '../../shared/gateway/signature.ts';
import { rewriteConnect, scrubUpstream } from '../../supervisor/http/gateway-proxy.ts';
import { removeHome, tempHome } from '../helpers/server.ts';
import { runChild, TSX } from '../helpers/spawn.ts';

const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const publicKeyOf = (raw: string) => createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(raw, 'base64url')]), format: 'der', type: 'spki' });

void test('Authentication 8: the v3 device payload joins the fields with | in the gateway\'s order; platform and family lowercased', () => {
  const payload = signaturePayloadV3('d'.repeat(64), {
    clientId: 'gateway-client',
    clientMode: 'backend',
    role: 'operator',
    scopes: ['operator.read', 'operator.write'],
    signedAt: 1795319743534,
    token: 'tok',
    nonce: 'n-1',
    platform: ' Linux ',
    deviceFamily: 'Desktop',
  });
  assert.equal(payload, `v3|${'d'.repeat(64)}|gateway-client|backend|operator|operator.read,operator.write|1795319743534|tok|n-1|linux|desktop`);
  const noFamily = signaturePayloadV3('e', { clientId: 'c', clientMode: 'm', role: 'r', scopes: [], signedAt: 1, token: '', nonce: 'n', platform: 'linux' });
  assert.equal(noFamily, 'v3|e|c|m|r||1||n|linux|');
});

void test('State directory: the device identity is created once (0600 in a 0700 folder) and read back unchanged', (t) => {
  const home = tempHome();
  t.after(() => removeHome(home));
  const file = join(home, 'nested', 'proxy-device-identity.json');
  const a = loadOrCreateDeviceIdentity(file);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(statSync(join(home, 'nested')).mode & 0o777, 0o700);
  const b = loadOrCreateDeviceIdentity(file);
  assert.equal(b.deviceId, a.deviceId);
  assert.equal(b.publicKey, a.publicKey);
  // The device id is sha256 of the raw 32-byte public key.
  const raw = Buffer.from(a.publicKey, 'base64url');
  assert.equal(raw.length, 32);
  assert.equal(a.deviceId, createHash('sha256').update(raw).digest('hex'));
  assert.ok(!readFileSync(file, 'utf8').includes('"privateKey"'), 'the key is stored as PKCS#8 PEM under privateKeyPem');
});

void test('State directory: a damaged identity file is an error, never silently replaced (that would unpair svc)', (t) => {
  const home = tempHome();
  t.after(() => removeHome(home));
  const file = join(home, 'proxy-device-identity.json');
  writeFileSync(file, '{"version":1,"deviceId":"nope"}');
  assert.throws(() => loadOrCreateDeviceIdentity(file), /not a svc device identity/);
  assert.equal(readFileSync(file, 'utf8'), '{"version":1,"deviceId":"nope"}');
  writeFileSync(file, 'not json -----BEGIN PRIVATE KEY-----');
  assert.throws(() => loadOrCreateDeviceIdentity(file), (err: Error) => !err.message.includes('BEGIN PRIVATE KEY'));
});

void test('State directory: processes racing to create the identity all end up with the same key', async (t) => {
  const home = tempHome();
  t.after(() => removeHome(home));
  mkdirSync(join(home, 'race'));
  const file = join(home, 'race', 'proxy-device-identity.json');
  const entry = new URL('../../shared/gateway/device-identity.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(entry)}).then((m) => process.stdout.write(m.loadOrCreateDeviceIdentity(${JSON.stringify(file)}).deviceId))`;
  const ids = await Promise.all(
    Array.from({ length: 6 }, async () => {
      const run = await runChild(process.execPath, ['--import', TSX, '-e', code]);
      assert.equal(run.code, 0, run.stderr);
      return run.stdout.trim();
    }),
  );
  assert.equal(new Set(ids).size, 1, `all workers saw one identity: ${ids.join(', ')}`);
  assert.equal(loadOrCreateDeviceIdentity(file).deviceId, ids[0]);
});

void test('Process model: a browser\'s connect is rewritten with svc\'s token and a device proof that verifies over the browser\'s own client fields', (t) => {
  const home = tempHome();
  t.after(() => removeHome(home));
  const identity = loadOrCreateDeviceIdentity(join(home, 'id.json'));
  const browser = {
    type: 'req' as const,
    id: 'c1',
    method: 'connect',
    params: {
      minProtocol: 3,
      maxProtocol: 9,
      client: { id: 'openclaw-control-ui', version: '1.0', platform: 'MacIntel', mode: 'ui' },
      role: 'operator',
      scopes: ['operator.read'],
      auth: { token: 'browser-guess' },
      device: { id: 'forged' },
      permissions: { x: 1 },
    },
  };
  const out = JSON.parse(rewriteConnect(browser, { nonce: 'N', ts: 42 }, 'svc-secret', identity, '0.3.1')) as {
    id: string;
    params: Record<string, unknown> & { auth: { token: string }; device: { id: string; publicKey: string; signature: string; signedAt: number; nonce: string } };
  };
  assert.equal(out.id, 'c1');
  assert.equal(out.params.auth.token, 'svc-secret');
  assert.equal(out.params.minProtocol, 4);
  assert.equal(out.params.maxProtocol, 4);
  assert.deepEqual(out.params.permissions, { x: 1 }, 'other fields pass through');
  assert.deepEqual(out.params.scopes, ['operator.read']);
  assert.equal(out.params.device.id, identity.deviceId);
  assert.equal(out.params.device.nonce, 'N');
  assert.equal(out.params.device.signedAt, 42);
  const payload = `v3|${identity.deviceId}|openclaw-control-ui|ui|operator|operator.read|42|svc-secret|N|macintel|`;
  assert.ok(verify(null, Buffer.from(payload), publicKeyOf(out.params.device.publicKey), Buffer.from(out.params.device.signature, 'base64url')));
});

void test('Gateway client: svc\'s own connect asks for the scopes and caps it needs', (t) => {
  const home = tempHome();
  t.after(() => removeHome(home));
  const identity = loadOrCreateDeviceIdentity(join(home, 'id.json'));
  const p = buildConnectParams({ identity, token: '', nonce: 'n', signedAt: 1, client: { id: 'gateway-client', version: 'v', platform: 'linux', mode: 'backend' } });
  assert.deepEqual(p.scopes, [...SVC_SCOPES]);
  assert.deepEqual(p.caps, [...SVC_CAPS]);
  assert.ok((p.caps as string[]).includes('exec-approvals'), 'without it a headless exec that needs approval fails');
  assert.equal(p.role, 'operator');
});

void test('Authentication 8: frames forwarded to the browser lose the device token of hello-ok and never carry the shared token', () => {
  const hello = JSON.stringify({ type: 'res', id: 'c1', ok: true, payload: { type: 'hello-ok', auth: { role: 'operator', deviceToken: 'dev-tok' } } });
  const scrubbed = JSON.parse(scrubUpstream(hello, 'shared', 'c1')) as { payload: { auth: Record<string, unknown> } };
  assert.deepEqual(scrubbed.payload.auth, { role: 'operator' });
  // Another response with a deviceToken field is left alone (only the connect's answer is scrubbed).
  const other = JSON.stringify({ type: 'res', id: 'r9', ok: true, payload: { deviceToken: 'x' } });
  assert.equal(scrubUpstream(other, 'shared', 'c1'), other);
  fc.assert(
    fc.property(fc.string(), fc.string({ minLength: 6 }).filter((s) => s.trim() === s && s.length > 0), (text, token) => {
      assert.ok(!scrubUpstream(`${text}${token}${text}`, token, null).includes(token));
    }),
  );
});

void test('Gateway client: inbound frames are parsed strictly; anything else is dropped', () => {
  assert.deepEqual(parseInbound('{"type":"res","id":"r1","ok":true,"payload":{"a":1}}'), { type: 'res', id: 'r1', ok: true, payload: { a: 1 } });
  const err = parseInbound('{"type":"res","id":"r1","ok":false,"error":{"code":"NOT_PAIRED","message":"pairing required","retryable":false}}');
  assert.equal(err?.type === 'res' && !err.ok ? err.error.code : null, 'NOT_PAIRED');
  assert.equal(parseInbound('{"type":"event","event":"tick","payload":{}}')?.type, 'event');
  for (const bad of ['not json', '[]', '{"type":"res","id":1,"ok":true}', '{"type":"other"}', 'null']) assert.equal(parseInbound(bad), null, bad);
});
