// Spec "Governance" → GET /api/governance/audit: the append-only forensic
// log, newest first, summaries masked, no write endpoint. Our query
// parameters: kind, agentId, limit (1-500, default 100) and before (a seq
// cursor); a wrong-typed one falls back to its default.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../helpers/app.ts';
import { AUDIT_KINDS, createAuditLog, type AuditKind, type AuditRow } from '../../shared/governance/index.ts';
import { MASK } from '../../shared/redact.ts';
import type { Runtime } from '../../supervisor/runtime.ts';

const SECRET = 'sk-live0123456789abcdefghij';

async function read(app: FastifyInstance, query = ''): Promise<AuditRow[]> {
  const res = await app.inject(`/api/governance/audit${query}`);
  assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
  const rows = res.json<AuditRow[]>();
  assert.ok(Array.isArray(rows), 'the body is a bare array of rows');
  return rows;
}

/** Appends `n` rows, cycling through the kinds and two agents. */
function seed(runtime: Runtime, n: number): void {
  const audit = createAuditLog(runtime.deps.db);
  runtime.deps.tx.run(() => {
    for (let i = 0; i < n; i++) {
      const kind = AUDIT_KINDS[i % AUDIT_KINDS.length] as AuditKind;
      audit.append({ kind, agentId: i % 2 === 0 ? 'agent-even' : 'agent-odd', subject: `row ${i}`, summary: `event ${i}`, data: { i } });
    }
  });
}

void test('Governance → GET /api/governance/audit: 200 with an empty array when there are no rows; there is no write endpoint', async (t) => {
  const { app } = await buildTestApp(t);
  assert.deepEqual(await read(app), []);
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
    const res = await app.inject({ method, url: '/api/governance/audit', payload: { kind: 'install', summary: 'forged' } });
    assert.equal(res.statusCode, 404, method);
  }
  assert.deepEqual(await read(app), []);
});

void test('Governance → GET /api/governance/audit: rows come newest first with their fields, including skill installs', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const res = await app.inject({ method: 'POST', url: '/api/skills', payload: { agentId: 'a1', name: 'n', source: 's', body: 'ok' } });
  assert.equal(res.statusCode, 200, res.body);
  const blocked = await app.inject({ method: 'POST', url: '/api/skills', payload: { agentId: 'a2', name: 'n', source: 's', body: 'rm -rf /' } });
  assert.equal(blocked.statusCode, 422);
  seed(runtime, 3);

  const rows = await read(app);
  assert.equal(rows.length, 5);
  const seqs = rows.map((r) => r.seq);
  assert.deepEqual(seqs, [...seqs].sort((a, b) => b - a), 'newest first');
  assert.deepEqual(rows.map((r) => r.kind), ['approval', 'install_blocked', 'install', 'install_blocked', 'install']);
  for (const r of rows) {
    assert.deepEqual(Object.keys(r).sort(), ['agentId', 'data', 'id', 'kind', 'seq', 'subject', 'summary', 'ts']);
    assert.match(r.id, /^[0-9a-f-]{36}$/);
    assert.equal(typeof r.ts, 'number');
  }
  const last = rows.at(-1);
  assert.equal(last?.agentId, 'a1');
  assert.equal((last?.data as { outcome: string }).outcome, 'inserted');
  const blockedRow = rows.at(-2);
  assert.deepEqual(blockedRow?.data, { findings: [{ pattern: 'destructive-rm', line: 1, fingerprint: blocked.json<{ findings: Array<{ fingerprint: string }> }>().findings[0]?.fingerprint }] });
});

void test('Governance → GET /api/governance/audit: secret-shaped summaries are masked on write and on read', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const db = runtime.deps.db;
  createAuditLog(db).append({ kind: 'tool_call', agentId: 'a1', subject: `key ${SECRET}`, summary: `called deploy with api_key=${SECRET}`, data: { token: 'abc123456', note: `Bearer ${SECRET}` } });
  const raw = JSON.stringify(db.prepare('SELECT * FROM governance_audit').all());
  assert.ok(!raw.includes(SECRET) && !raw.includes('abc123456'), 'masked before it reaches the table');

  // A row written past the writer (an older build, another process): masked when read.
  db.prepare(`INSERT INTO governance_audit (id, ts, kind, agent_id, subject, summary, data) VALUES ('raw-1', 1, 'budget', NULL, ?, ?, ?)`).run(
    `subject ${SECRET}`,
    `budget hit; password=hunter2hunter2 and ${SECRET}`,
    JSON.stringify({ apiKey: 'plain-value', ok: 1 }),
  );
  const rows = await read(app);
  const body = JSON.stringify(rows);
  assert.ok(!body.includes(SECRET) && !body.includes('hunter2hunter2') && !body.includes('plain-value') && !body.includes('abc123456'), body);
  assert.ok(rows[0]?.summary.includes(MASK), rows[0]?.summary);
  assert.ok(rows[1]?.summary.includes(MASK), rows[1]?.summary);
  assert.deepEqual(rows[0]?.data, { apiKey: MASK, ok: 1 });
});

void test('Governance → GET /api/governance/audit: kind, agentId, limit and before filter and page; wrong types fall back to defaults', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  seed(runtime, 520);

  assert.equal((await read(app)).length, 100, 'default limit 100');
  assert.equal((await read(app, '?limit=7')).length, 7);
  assert.equal((await read(app, '?limit=0')).length, 1, 'clamped up to 1');
  assert.equal((await read(app, '?limit=-3')).length, 1);
  assert.equal((await read(app, '?limit=100000')).length, 500, 'clamped down to 500');
  for (const q of ['?limit=abc', '?limit=', '?limit=1&limit=2', '?before=abc', '?before=-1', '?before=1.5', '?kind=', '?kind=a&kind=b', '?agentId=', '?nonsense=1']) {
    assert.equal((await read(app, q)).length, 100, q);
  }

  const installs = await read(app, '?kind=install&limit=500');
  assert.equal(installs.length, 65);
  assert.ok(installs.every((r) => r.kind === 'install'));
  assert.deepEqual(await read(app, '?kind=no_such_kind'), [], 'an unknown kind matches nothing');
  const odd = await read(app, '?agentId=agent-odd&kind=install_blocked&limit=500');
  assert.ok(odd.length > 0 && odd.every((r) => r.agentId === 'agent-odd' && r.kind === 'install_blocked'));

  const page1 = await read(app, '?limit=10');
  const page2 = await read(app, `?limit=10&before=${page1.at(-1)?.seq}`);
  assert.equal(page2.length, 10);
  assert.equal(page2[0]?.seq, (page1.at(-1)?.seq ?? 0) - 1, 'the next page starts just below the cursor');
  assert.deepEqual(await read(app, '?before=1'), []);
});

void test('Governance → GET /api/governance/audit: the table is append-only; UPDATE and DELETE are refused by its triggers', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  seed(runtime, 2);
  const db = runtime.deps.db;
  const before = JSON.stringify(db.prepare('SELECT * FROM governance_audit ORDER BY seq').all());
  assert.throws(() => db.prepare(`UPDATE governance_audit SET summary = 'rewritten'`).run(), /append-only/);
  assert.throws(() => db.prepare('DELETE FROM governance_audit WHERE seq = 1').run(), /append-only/);
  assert.throws(() => db.prepare('DELETE FROM governance_audit').run(), /append-only/);
  assert.equal(JSON.stringify(db.prepare('SELECT * FROM governance_audit ORDER BY seq').all()), before);
  assert.equal((await read(app)).length, 2);
});
