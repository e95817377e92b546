// Issue 23 item 1 through the routes: roster changes rewrite the gateway's
// `subagents.allowAgents` in openclaw.json (a backup first, unknown keys kept,
// no write when nothing changes, no file -> nothing written), the delegation
// GET/PUT, and the import route's input checks (the import itself runs
// against a real gateway in test/gateway/team-preset.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../helpers/app.ts';

interface Json { [k: string]: unknown }

const PRESET = {
  gateway: { mode: 'local', port: 18989, bind: 'loopback' },
  somethingElse: { keep: ['me'] },
  agents: {
    defaults: { model: { primary: 'fakellm/fake-model' } },
    entries: {
      lead: { workspace: '/w/lead', subagents: { allowAgents: ['stale'], delegationMode: 'prefer' } },
      a: { workspace: '/w/a', identity: { name: 'A' } },
      b: { workspace: '/w/b', subagents: { allowAgents: ['lead'] } },
      stranger: { workspace: '/w/s', subagents: { allowAgents: ['a', 'b'] } },
    },
  },
};

const configFile = (stateDir: string) => join(stateDir, 'openclaw.json');
const readConfig = (stateDir: string) => JSON.parse(readFileSync(configFile(stateDir), 'utf8')) as Json;
const entries = (stateDir: string) => (readConfig(stateDir).agents as Json).entries as Record<string, Json>;
const allowOf = (stateDir: string, id: string) => ((entries(stateDir)[id]?.subagents as Json | undefined)?.allowAgents ?? null) as string[] | null;

async function ok(app: FastifyInstance, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown): Promise<Json> {
  const res = await app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as Json }) });
  assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json<Json>();
}

async function teamWithLead(app: FastifyInstance, members: string[]): Promise<string> {
  for (const id of ['lead', ...members]) await ok(app, 'POST', '/api/agents', { id, name: id.toUpperCase() });
  const { team } = (await ok(app, 'POST', '/api/teams', { name: 'Crew', icon: '🧭', color: '#2f6fde', leaderAgentId: 'lead' })) as { team: { id: string } };
  for (const id of members) await ok(app, 'POST', `/api/teams/${team.id}/agents`, { agentId: id });
  return team.id;
}

void test('Delegation (issue 23, item 1): roster changes rewrite allowAgents, with a backup, unknown keys kept', async (t) => {
  const { app, config } = await buildTestApp(t);
  const stateDir = config.gatewayStateDir;
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(configFile(stateDir), JSON.stringify(PRESET, null, 2));

  const teamId = await teamWithLead(app, ['a', 'b']);
  assert.deepEqual(allowOf(stateDir, 'lead')?.sort(), ['a', 'b']);
  assert.deepEqual(allowOf(stateDir, 'a'), []);
  assert.deepEqual(allowOf(stateDir, 'b'), []);
  const cfg = readConfig(stateDir);
  assert.deepEqual(cfg.somethingElse, { keep: ['me'] }, 'unknown top-level keys are kept');
  assert.equal(((entries(stateDir).lead as Json).subagents as Json).delegationMode, 'prefer', 'other subagents keys are kept');
  assert.deepEqual(entries(stateDir).a?.identity, { name: 'A' });
  assert.deepEqual(allowOf(stateDir, 'stranger'), ['a', 'b'], 'an agent svc does not know is left as it is');
  assert.ok(existsSync(join(stateDir, 'openclaw.json.svc-bak')), 'a backup is written before the change');

  const view = await ok(app, 'GET', `/api/teams/${teamId}/delegation`);
  assert.equal(view.subDelegation, false);
  assert.deepEqual(Object.keys(view.allowAgents as Json).sort(), ['a', 'b', 'lead']);
  assert.deepEqual(((view.allowAgents as Json).lead as string[]).sort(), ['a', 'b']);
  assert.equal((view.sync as Json).error, null);
  assert.equal(typeof (view.sync as Json).syncedAt, 'number');

  // Member removed: the lead's list drops it; the backup holds the file as it was before.
  await ok(app, 'DELETE', `/api/teams/${teamId}/agents/b`);
  assert.deepEqual(allowOf(stateDir, 'lead'), ['a']);
  const backup = JSON.parse(readFileSync(join(stateDir, 'openclaw.json.svc-bak'), 'utf8')) as typeof PRESET;
  assert.deepEqual(backup.agents.entries.lead.subagents.allowAgents.sort(), ['a', 'b']);

  // Sub-delegation on: members may spawn each other.
  await ok(app, 'POST', `/api/teams/${teamId}/agents`, { agentId: 'b' });
  const on = await ok(app, 'PUT', `/api/teams/${teamId}/delegation`, { subDelegation: true });
  assert.equal(on.subDelegation, true);
  assert.deepEqual(allowOf(stateDir, 'a'), ['b']);
  assert.deepEqual(allowOf(stateDir, 'b'), ['a']);

  // Nothing changed: no write at all (the gateway hot-reloads every write).
  const before = statSync(configFile(stateDir)).ino;
  await ok(app, 'PUT', `/api/teams/${teamId}/delegation`, { subDelegation: true });
  await ok(app, 'PATCH', `/api/teams/${teamId}`, { leaderAgentId: 'lead' });
  assert.equal(statSync(configFile(stateDir)).ino, before, 'an unchanged roster does not rewrite openclaw.json');

  // Agent deleted: gone from the lead's list.
  await ok(app, 'DELETE', '/api/agents/a');
  assert.deepEqual(allowOf(stateDir, 'lead'), ['b']);
  assert.deepEqual(allowOf(stateDir, 'b'), []);

  // Leader changed: the old lead gets [] and the new one the members.
  await ok(app, 'POST', '/api/agents', { id: 'a', name: 'A again' });
  await ok(app, 'PATCH', `/api/teams/${teamId}`, { leaderAgentId: 'a' });
  assert.deepEqual(allowOf(stateDir, 'a'), ['b']);
  assert.deepEqual(allowOf(stateDir, 'lead'), []);

  // Team deleted: no one may spawn anyone; its switch is cleaned up.
  await ok(app, 'DELETE', `/api/teams/${teamId}`);
  assert.deepEqual(allowOf(stateDir, 'a'), []);
  assert.deepEqual(allowOf(stateDir, 'b'), []);
  const gone = await app.inject(`/api/teams/${teamId}/delegation`);
  assert.equal(gone.statusCode, 404);
  assert.deepEqual(gone.json(), { error: 'team not found' });
});

void test('Delegation (issue 23, item 1): an archived team grants nothing', async (t) => {
  const { app, config } = await buildTestApp(t);
  const stateDir = config.gatewayStateDir;
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(configFile(stateDir), JSON.stringify(PRESET));
  const teamId = await teamWithLead(app, ['a']);
  assert.deepEqual(allowOf(stateDir, 'lead'), ['a']);
  await ok(app, 'PATCH', `/api/teams/${teamId}`, { isArchived: 1 });
  assert.deepEqual(allowOf(stateDir, 'lead'), []);
});

void test('Delegation (issue 23, item 1): a team without a leader follows the global lead: changing it rewrites the lists', async (t) => {
  const { app, config } = await buildTestApp(t);
  const stateDir = config.gatewayStateDir;
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(configFile(stateDir), JSON.stringify(PRESET));
  for (const id of ['lead', 'a', 'b']) await ok(app, 'POST', '/api/agents', { id, name: id.toUpperCase() });
  const { team } = (await ok(app, 'POST', '/api/teams', { name: 'Leaderless', icon: '🧭', color: '#2f6fde' })) as { team: { id: string } };
  await ok(app, 'POST', `/api/teams/${team.id}/agents`, { agentId: 'a' });
  await ok(app, 'POST', '/api/lead/override', { agentId: 'b' });
  assert.deepEqual(allowOf(stateDir, 'b'), ['a'], 'the global lead leads the team');
  await ok(app, 'POST', '/api/lead/override', { agentId: 'lead' });
  assert.deepEqual(allowOf(stateDir, 'lead'), ['a'], 'the new global lead may hand work to the team');
  assert.deepEqual(allowOf(stateDir, 'b'), [], 'the former one no longer may');
});

void test('Delegation (issue 23, item 1): no gateway config -> nothing written, no error; a corrupt one is left alone and reported', async (t) => {
  const { app, config, logs } = await buildTestApp(t);
  const stateDir = config.gatewayStateDir;
  const teamId = await teamWithLead(app, ['a']);
  assert.equal(existsSync(configFile(stateDir)), false, 'no openclaw.json is created');
  const view = await ok(app, 'GET', `/api/teams/${teamId}/delegation`);
  assert.deepEqual(view.allowAgents, {});
  assert.deepEqual(view.sync, { syncedAt: null, error: null });

  mkdirSync(stateDir, { recursive: true });
  writeFileSync(configFile(stateDir), '{ "agents": { not json');
  await ok(app, 'DELETE', `/api/teams/${teamId}/agents/a`);
  assert.equal(readFileSync(configFile(stateDir), 'utf8'), '{ "agents": { not json', 'a corrupt file is not replaced');
  const after = await ok(app, 'GET', `/api/teams/${teamId}/delegation`);
  assert.match(String((after.sync as Json).error), /not valid JSON/);
  assert.ok(logs.some((l) => l.includes('svc did not change it')), 'the log says why');
});

void test('Delegation (issue 23, item 1): bad input is a clear 400 or 404 and changes nothing', async (t) => {
  const { app, config } = await buildTestApp(t);
  mkdirSync(config.gatewayStateDir, { recursive: true });
  writeFileSync(configFile(config.gatewayStateDir), JSON.stringify(PRESET));
  const teamId = await teamWithLead(app, ['a']);
  const snapshot = readFileSync(configFile(config.gatewayStateDir), 'utf8');

  for (const payload of [{}, { subDelegation: 'yes' }, { subDelegation: null }, []]) {
    const res = await app.inject({ method: 'PUT', url: `/api/teams/${teamId}/delegation`, payload: payload as Json });
    assert.equal(res.statusCode, 400, JSON.stringify(payload));
    assert.deepEqual(res.json(), { error: 'subDelegation (boolean) is required' });
  }
  const bad = await app.inject({ method: 'PUT', url: `/api/teams/${teamId}/delegation`, headers: { 'content-type': 'application/json' }, payload: '{oops' });
  assert.equal(bad.statusCode, 400);
  const missing = await app.inject({ method: 'PUT', url: '/api/teams/nope/delegation', payload: { subDelegation: true } });
  assert.equal(missing.statusCode, 404);
  assert.deepEqual(missing.json(), { error: 'team not found' });
  assert.equal((await ok(app, 'GET', `/api/teams/${teamId}/delegation`)).subDelegation, false);
  assert.equal(readFileSync(configFile(config.gatewayStateDir), 'utf8'), snapshot);

  for (const payload of [{}, { coordinatorId: '' }, { coordinatorId: 7 }, []]) {
    const res = await app.inject({ method: 'POST', url: '/api/teams/import', payload: payload as Json });
    assert.equal(res.statusCode, 400, JSON.stringify(payload));
    assert.deepEqual(res.json(), { error: 'coordinatorId required' });
  }
  // No gateway: 503 with the message the gateway pages use; no team is made.
  const down = await app.inject({ method: 'POST', url: '/api/teams/import', payload: { coordinatorId: 'lead' } });
  assert.equal(down.statusCode, 503);
  assert.deepEqual(down.json(), { error: 'gateway not reachable: start it on the Gateway page' });
  const candidates = await ok(app, 'GET', '/api/teams/import/candidates');
  assert.equal(candidates.reachable, false);
  const teams = (await ok(app, 'GET', '/api/teams')) as { teams: unknown[] };
  assert.equal(teams.teams.length, 1);
});
