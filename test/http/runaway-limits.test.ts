// Runaway turns (issue 31, item 7) through the routes: a team's limits
// (GET/PUT /api/teams/:id/runaway-limits: defaults, a partial set, bad input
// a 400 with details that changes nothing, an unknown team a 404), the
// strictest of an agent's teams as the endpoint resolves them, and the
// gateway's tool-loop detection read from its file while svc is not
// connected (the switch itself needs the gateway's config.patch: a 503 here;
// on a real gateway in test/gateway/runaway.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { RUNAWAY_DEFAULTS } from '../../shared/model-proxy/runaway.ts';
import { resolveRunawayLimits } from '../../shared/model-proxy/runaway-limits.ts';
import { recordRunaway } from '../../shared/model-proxy/runaway-record.ts';
import { detectRunaway } from '../../shared/model-proxy/runaway.ts';
import { createEntryWriter } from '../../shared/team-chat/entries.ts';
import { buildTestApp } from '../helpers/app.ts';

interface Json { [k: string]: unknown }

async function send(app: FastifyInstance, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): Promise<{ status: number; body: Json }> {
  const res = await app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as Json }) });
  return { status: res.statusCode, body: res.json<Json>() };
}

async function team(app: FastifyInstance, name: string, leader: string): Promise<string> {
  assert.ok((await send(app, 'POST', '/api/agents', { id: leader, name: leader })).status < 300);
  const r = await send(app, 'POST', '/api/teams', { name, icon: '🧭', color: '#2f6fde', leaderAgentId: leader });
  assert.ok(r.status < 300, JSON.stringify(r.body));
  return (r.body.team as { id: string }).id;
}

void test('Runaway (issue 31, item 7): a team starts at the defaults; PUT sets either limit; the rest stays the default', async (t) => {
  const { app } = await buildTestApp(t);
  const teamId = await team(app, 'Crew', 'lead');
  const url = `/api/teams/${teamId}/runaway-limits`;
  assert.deepEqual((await send(app, 'GET', url)).body, { teamId, limits: RUNAWAY_DEFAULTS, custom: {}, defaults: RUNAWAY_DEFAULTS });

  const put = await send(app, 'PUT', url, { maxIdenticalRepeats: 4 });
  assert.equal(put.status, 200);
  assert.deepEqual(put.body.limits, { maxCallsPerTurn: RUNAWAY_DEFAULTS.maxCallsPerTurn, maxIdenticalRepeats: 4 });
  assert.deepEqual((await send(app, 'GET', url)).body.custom, { maxIdenticalRepeats: 4 });

  // An empty PUT goes back to the defaults.
  assert.deepEqual((await send(app, 'PUT', url, {})).body.limits, RUNAWAY_DEFAULTS);
});

void test('Runaway (issue 31, item 7): out-of-bounds, fractional, wrong-typed or unknown fields are a 400 with details and change nothing; an unknown team is a 404', async (t) => {
  const { app } = await buildTestApp(t);
  const teamId = await team(app, 'Crew', 'lead');
  const url = `/api/teams/${teamId}/runaway-limits`;
  await send(app, 'PUT', url, { maxCallsPerTurn: 40 });
  for (const bad of [{ maxCallsPerTurn: 0 }, { maxIdenticalRepeats: 1 }, { maxCallsPerTurn: 2.5 }, { maxCallsPerTurn: '40' }, { maxCalls: 3 }, { maxCallsPerTurn: 1e9 }]) {
    const r = await send(app, 'PUT', url, bad);
    assert.equal(r.status, 400, JSON.stringify(bad));
    assert.match(String(r.body.error), /^runaway limits:/);
    assert.ok(r.body.details && typeof r.body.details === 'object', `details for ${JSON.stringify(bad)}`);
  }
  assert.equal((await send(app, 'PUT', url, [1, 2])).status, 400);
  assert.deepEqual((await send(app, 'GET', url)).body.custom, { maxCallsPerTurn: 40 });
  assert.equal((await send(app, 'GET', '/api/teams/nope/runaway-limits')).status, 404);
  assert.equal((await send(app, 'PUT', '/api/teams/nope/runaway-limits', { maxCallsPerTurn: 5 })).status, 404);
});

void test('Runaway (issue 31, item 7): an agent on two teams is held to the stricter limit of each kind', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const red = await team(app, 'Red', 'r');
  const blue = await team(app, 'Blue', 'b');
  await send(app, 'PUT', `/api/teams/${red}/runaway-limits`, { maxCallsPerTurn: 20, maxIdenticalRepeats: 8 });
  await send(app, 'PUT', `/api/teams/${blue}/runaway-limits`, { maxCallsPerTurn: 50, maxIdenticalRepeats: 3 });
  assert.deepEqual(resolveRunawayLimits(runtime.deps.settingsTable, [red, blue]), { maxCallsPerTurn: 20, maxIdenticalRepeats: 3 });
  assert.deepEqual(resolveRunawayLimits(runtime.deps.settingsTable, []), RUNAWAY_DEFAULTS);
});

void test('Runaway (issue 31, item 7): an ended turn leaves one loop_detected event per ended call and one transcript note per turn', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const teamId = await team(app, 'Crew', 'alice');
  const { tx, eventLog, chatMessages } = runtime.deps;
  const deps = { tx, eventLog, entries: createEntryWriter(chatMessages, Date.now) };
  const call = { tool_calls: [{ id: 'c', type: 'function', function: { name: 'exec', arguments: '{"cmd":"ls"}' } }] };
  const messages = [{ role: 'user', content: 'go' }, ...[1, 2].flatMap(() => [{ role: 'assistant', ...call }, { role: 'tool', tool_call_id: 'c', content: 'a b' }])];
  const hit = detectRunaway('openai-completions', { messages }, { maxCallsPerTurn: 100, maxIdenticalRepeats: 2 }, 'alice');
  assert.ok(hit);
  const sessionKey = `agent:alice:team:${teamId}`;
  // The gateway retries the ended call once: a second event, no second note.
  for (const callId of ['call-1', 'call-2']) recordRunaway(deps, { agentId: 'alice', sessionKey, teamId, hit, runId: 'run-7', traceId: 'a'.repeat(32), callId });

  const events = await send(app, 'GET', `/api/obs/events?teamId=${teamId}&kinds=loop_detected`);
  const rows = (events.body.events ?? events.body) as Array<{ kind: string; agentId: string; correlationId: string; data: unknown }>;
  assert.deepEqual(rows.map((e) => [e.kind, e.agentId, e.correlationId]).sort(), [['loop_detected', 'alice', 'call-1'], ['loop_detected', 'alice', 'call-2']]);
  const data = (typeof rows[0]?.data === 'string' ? JSON.parse(rows[0].data) : rows[0]?.data) as Json;
  assert.deepEqual({ reason: data.reason, count: data.count, limit: data.limit, tool: data.tool, runId: data.runId }, { reason: 'repeated_tool_call', count: 2, limit: 2, tool: 'exec', runId: 'run-7' });

  const history = await send(app, 'GET', `/api/chat-history?sessionKey=${encodeURIComponent(sessionKey)}`);
  const notes = (history.body.entries as Array<{ role: string; kind: string; text: string }>).filter((e) => e.kind === 'meta');
  assert.deepEqual(notes.map((n) => [n.role, n.text]), [['system', 'svc ended this turn: alice repeated the same exec call 2 times with the same result (the limit is 2).']]);

  // A call outside svc's runs (no session of svc's): the event only.
  recordRunaway(deps, { agentId: 'alice', sessionKey: null, teamId: null, hit, callId: 'call-3' });
  const all = await send(app, 'GET', '/api/obs/events?kinds=loop_detected');
  assert.equal(((all.body.events ?? all.body) as unknown[]).length, 3);
});

void test('Runaway (issue 31, item 7): the gateway\'s tool-loop detection per agent, read from its file while svc is not connected; the switch then answers 503 and writes nothing', async (t) => {
  const { app, config } = await buildTestApp(t);
  const none = await send(app, 'GET', '/api/system/loop-detection');
  assert.deepEqual([none.status, none.body], [200, { source: 'none', writable: false, global: { enabled: null }, agents: [] }], 'no config file, no gateway: nothing to show, not an error');

  mkdirSync(config.gatewayStateDir, { recursive: true });
  const file = join(config.gatewayStateDir, 'openclaw.json');
  const cfg = {
    tools: { loopDetection: { enabled: true } },
    agents: { entries: { main: {}, quiet: { tools: { loopDetection: { enabled: false } } }, loud: { tools: { loopDetection: { enabled: true } } } } },
  };
  writeFileSync(file, JSON.stringify(cfg, null, 2));
  const view = await send(app, 'GET', '/api/system/loop-detection');
  assert.equal(view.status, 200);
  assert.deepEqual(view.body, {
    source: 'file',
    writable: false,
    global: { enabled: true },
    agents: [
      { agentId: 'loud', enabled: true, effective: true },
      { agentId: 'main', enabled: null, effective: true },
      { agentId: 'quiet', enabled: false, effective: false },
    ],
  });

  const before = readFileSync(file, 'utf8');
  const off = await send(app, 'PUT', '/api/system/loop-detection', { agentId: 'main', enabled: true });
  assert.equal(off.status, 503);
  assert.match(String(off.body.error), /not connected to a gateway/);
  for (const bad of [{}, { enabled: 'yes' }, { agentId: '', enabled: true }, { enabled: true, extra: 1 }]) {
    const r = await send(app, 'PUT', '/api/system/loop-detection', bad);
    assert.equal(r.status, 400, JSON.stringify(bad));
    assert.ok(r.body.details, 'details');
  }
  assert.equal(readFileSync(file, 'utf8'), before);
});
