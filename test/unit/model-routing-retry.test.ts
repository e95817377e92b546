// A routing round whose config.patch the gateway refuses as "changed since
// last load" keeps the model tokens it wrote into `.env` (a retry must find
// them), and the next round plans no `.env` change for them. The gateway
// reads `.env` only when it reads a changed config and is asked to reload its
// secrets; unless the retry asks, it keeps naming a token variable it never
// read, and every routed call fails with "secret reference was not found".
// The gateway here is a recorded call function over the rig's files
// (model-routing-rig.ts); the real gateway's side is the routing e2e.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isJsonObject, type JsonObject } from '../../shared/gateway/config-file.ts';
import { ENV_ALL, rig, twoUpstreams } from './model-routing-rig.ts';

/** RFC 7396, as the gateway's config.patch applies it. */
function mergePatch(target: JsonObject, patch: JsonObject): JsonObject {
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete target[k];
    else if (isJsonObject(v)) target[k] = mergePatch(isJsonObject(target[k]) ? target[k] : {}, v);
    else target[k] = v;
  }
  return target;
}

void test('Model routing: the round after a write refused as changed since load makes the gateway read the tokens the refused round left in .env', async (t) => {
  let refuse = 3;
  const calls: string[] = [];
  const r = rig(t, { config: twoUpstreams(), env: ENV_ALL }, (stateDir) => {
    const file = join(stateDir, 'openclaw.json');
    return {
      connected: () => true,
      call: async (method, params) => {
        calls.push(method);
        if (method === 'config.get') return { path: file, hash: 'h', parsed: JSON.parse(readFileSync(file, 'utf8')) };
        if (method === 'secrets.reload') return {};
        if (method === 'agents.list') return { agents: [{ id: 'main' }] };
        if (method !== 'config.patch') throw new Error(`unexpected ${method}`);
        if (refuse-- > 0) throw new Error('config changed since last load; re-run config.get and retry');
        const { raw } = params as { raw: string };
        writeFileSync(file, JSON.stringify(mergePatch(JSON.parse(readFileSync(file, 'utf8')) as JsonObject, JSON.parse(raw) as JsonObject)));
        return {};
      },
    };
  });

  await assert.rejects(r.sync(), /changed since last load/);
  assert.ok(r.env().SVC_MODEL_TOKEN_MAIN, 'the refused round left the token for its retry');
  assert.equal(r.config().models.providers['svc-main'], undefined, 'and wrote no config');
  assert.ok(!calls.includes('secrets.reload'));

  calls.length = 0;
  const retry = await r.sync();
  assert.deepEqual(retry.changed.env, [], 'the retry has no .env change of its own');
  assert.ok(retry.changed.config > 0);
  assert.equal(r.config().models.providers['svc-main'].apiKey, '${SVC_MODEL_TOKEN_MAIN}');
  assert.deepEqual(calls.slice(calls.indexOf('config.patch')), ['config.patch', 'config.get', 'secrets.reload'], 'the gateway is made to read the token after the config that names it');
  assert.equal(retry.envPending, false);

  calls.length = 0;
  assert.equal((await r.sync()).changed.config, 0);
  assert.ok(!calls.includes('secrets.reload'), 'a round that changes nothing asks nothing');
});
