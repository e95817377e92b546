// Spec "Governance" → GET and POST /api/approvals: the approval-decision
// history, a table of its own, newest first. POST records a decision
// (agentId, action, toolName; action one of the tool approval's decisions);
// every resolve of a tool approval adds its row too. Both routes answer in
// the `{ ok }` envelope, errors included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { DecisionRecord } from '../../shared/approvals/schemas.ts';
import { createApprovalStore } from '../../shared/broker/approvals.ts';
import { buildTestApp } from '../helpers/app.ts';

async function records(app: FastifyInstance, query = ''): Promise<DecisionRecord[]> {
  const res = await app.inject(`/api/approvals${query}`);
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json<{ ok: boolean; records: DecisionRecord[] }>();
  assert.equal(body.ok, true);
  return body.records;
}

const post = (app: FastifyInstance, payload: unknown) =>
  app.inject({ method: 'POST', url: '/api/approvals', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

void test('Governance → POST /api/approvals: records a decision; GET lists the records newest first, filtered by agent and tool', async (t) => {
  const { app } = await buildTestApp(t);
  assert.deepEqual(await records(app), []);

  const made: DecisionRecord[] = [];
  for (const [agentId, toolName, action] of [['ada', 'delete_path', 'deny'], ['bob', 'web_search', 'allow_once'], ['ada', 'web_search', 'allow_always']]) {
    const res = await post(app, { agentId, toolName, action, reason: `why ${agentId}` });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json<{ ok: boolean; record: DecisionRecord }>();
    assert.equal(body.ok, true);
    assert.equal(body.record.agentId, agentId);
    assert.equal(body.record.toolName, toolName);
    assert.equal(body.record.action, action);
    assert.equal(body.record.approvalId, null);
    assert.equal(body.record.source, 'client', 'a reported decision, linked to no approval of svc');
    assert.equal(body.record.reason, `why ${agentId}`);
    made.push(body.record);
  }
  assert.deepEqual(await records(app), [...made].reverse(), 'newest first, as POST answered them');
  assert.deepEqual((await records(app, '?agentId=ada')).map((r) => r.toolName), ['web_search', 'delete_path']);
  assert.deepEqual((await records(app, '?toolName=web_search&agentId=bob')).map((r) => r.action), ['allow_once']);
  assert.equal((await records(app, '?limit=1')).length, 1);
  assert.equal((await records(app, '?limit=abc')).length, 3, 'a wrong-typed limit falls back to the default');
});

void test('Governance → POST /api/approvals: a non-object body, a missing field or a bad action is 400 { ok: false, error } and records nothing', async (t) => {
  const { app } = await buildTestApp(t);
  const cases: Array<[unknown, string]> = [
    [[], 'body must be a JSON object'],
    ['text', 'body must be a JSON object'],
    [{ action: 'deny', toolName: 'x' }, 'agentId, action and toolName are required'],
    [{ agentId: 'a', action: 'deny' }, 'agentId, action and toolName are required'],
    [{ agentId: '  ', action: 'deny', toolName: 'x' }, 'agentId, action and toolName are required'],
    [{ agentId: 'a', toolName: 'x' }, 'action must be one of allow_once, allow_always, deny'],
    [{ agentId: 'a', toolName: 'x', action: 'approve' }, 'action must be one of allow_once, allow_always, deny'],
  ];
  for (const [payload, error] of cases) {
    const res = await post(app, payload);
    assert.equal(res.statusCode, 400, JSON.stringify(payload));
    assert.deepEqual(res.json(), { ok: false, error }, JSON.stringify(payload));
  }
  const bad = await app.inject({ method: 'POST', url: '/api/approvals', headers: { 'content-type': 'application/json' }, payload: '{"agentId":' });
  assert.equal(bad.statusCode, 400);
  assert.deepEqual(bad.json(), { ok: false, error: 'body must be a JSON object' });
  assert.deepEqual(await records(app), []);
});

void test('Governance → GET /api/approvals: resolving a tool approval adds its decision once; a second resolve adds nothing', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const store = createApprovalStore(runtime.deps.db);
  const row = store.open({ toolName: 'delete_path', agentId: 'ada', agentTokenId: null, argsSummary: null, reason: 'cleanup', taskId: null, tenantId: null, ttlMs: 60_000 }, Date.now());
  for (const decision of ['deny', 'allow_once']) {
    const res = await app.inject({ method: 'POST', url: `/api/tools/approvals/${row.id}/resolve`, payload: { decision } });
    assert.equal(res.statusCode, 200, res.body);
  }
  const list = await records(app);
  assert.equal(list.length, 1);
  assert.equal(list[0]?.approvalId, row.id);
  assert.equal(list[0]?.action, 'deny');
  assert.equal(list[0]?.agentId, 'ada');
  assert.equal(list[0]?.toolName, 'delete_path');
  assert.equal(list[0]?.source, 'svc');
});

void test('Security (issue 33 #6): a decision a client reports stays apart from the ones svc made: source, and a filter on it', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const store = createApprovalStore(runtime.deps.db);
  const row = store.open({ toolName: 'delete_path', agentId: 'ada', agentTokenId: null, argsSummary: null, reason: 'cleanup', taskId: null, tenantId: null, ttlMs: 60_000 }, Date.now());
  assert.equal((await app.inject({ method: 'POST', url: `/api/tools/approvals/${row.id}/resolve`, payload: { decision: 'deny' } })).statusCode, 200);
  // A client claims the same agent was allowed the same tool: it is recorded, as the spec says, but as a report.
  assert.equal((await post(app, { agentId: 'ada', toolName: 'delete_path', action: 'allow_always' })).statusCode, 200);
  const all = await records(app);
  assert.deepEqual(all.map((r) => [r.action, r.source, r.approvalId]), [['allow_always', 'client', null], ['deny', 'svc', row.id]]);
  assert.deepEqual((await records(app, '?source=svc')).map((r) => r.action), ['deny']);
  assert.deepEqual((await records(app, '?source=client')).map((r) => r.action), ['allow_always']);
  assert.equal((await records(app, '?source=bogus')).length, 2, 'a wrong value falls back to no filter');
  // Nothing was granted by the report: the approval is still the denied one.
  assert.equal(store.get(row.id)?.status, 'deny');
});

void test('Governance → GET /api/approvals: a database failure is 500 { ok: false, error, records: [] }; the server goes on', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  runtime.deps.db.exec('DROP TABLE approval_decisions');
  const res = await app.inject('/api/approvals');
  assert.equal(res.statusCode, 500);
  const body = res.json<{ ok: boolean; error: string; records: unknown[] }>();
  assert.deepEqual({ ok: body.ok, records: body.records }, { ok: false, records: [] });
  assert.match(body.error, /^database error \(SQLITE_/);
  const write = await post(app, { agentId: 'a', toolName: 'x', action: 'deny' });
  assert.equal(write.statusCode, 500);
  assert.equal(write.json<{ ok: boolean }>().ok, false);
  assert.equal((await app.inject('/api/health')).statusCode, 200);
});
