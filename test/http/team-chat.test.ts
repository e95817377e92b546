// Spec "Teams": POST /api/teams/:id/chat and POST /api/teams/:id/chat/stop
// (issue 17 #2, #5): the spec's 400s and 404 with nothing written, 202 with
// the user entry persisted under the target's key before the delivery,
// idempotent entry ids, targeting, and runs that a closed request never
// aborts. No gateway listens: each delivery ends as a `system`/`meta` entry,
// which proves the path up to the send.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '../helpers/wait.ts';
import { assign, chatFixture, createTeam, type ChatFixture } from './team-chat-fixture.ts';

const M = {
  teamId: { error: 'team id required' },
  message: { error: 'message required' },
  gated: { error: 'team is not server-orchestrated' },
};

/** The user entry the last accepted message wrote. */
function lastUser(f: ChatFixture) {
  const users = f.rows().filter((r) => r.entry.kind === 'user');
  const last = users[users.length - 1];
  assert.ok(last, 'a user entry was written');
  return last;
}

void test('Teams → POST /api/teams/:id/chat: a blank team id answers 400 team id required and writes nothing', async (t) => {
  const f = await chatFixture(t);
  const events = f.eventCount();
  for (const id of [' ', '%20%20', '%09']) {
    const res = await f.app.inject({ method: 'POST', url: `/api/teams/${id}/chat`, payload: { message: 'hello' } });
    assert.equal(res.statusCode, 400, id);
    assert.deepEqual(res.json(), M.teamId);
  }
  assert.deepEqual(f.rows(), []);
  assert.equal(f.eventCount(), events);
});

void test('Teams → POST /api/teams/:id/chat: a missing, non-object or malformed body, or a missing, non-string or blank message, answers 400 message required and writes nothing', async (t) => {
  const f = await chatFixture(t);
  const events = f.eventCount();
  const raw = async (payload: string | undefined) =>
    payload === undefined
      ? f.app.inject({ method: 'POST', url: `/api/teams/${f.teamId}/chat` })
      : f.app.inject({ method: 'POST', url: `/api/teams/${f.teamId}/chat`, headers: { 'content-type': 'application/json' }, payload });
  for (const body of [undefined, '', 'null', '[1]', '"hello"', '42', 'true', '{"message": ']) {
    const res = await raw(body);
    assert.equal(res.statusCode, 400, String(body));
    assert.deepEqual(res.json(), M.message, String(body));
  }
  for (const message of [undefined, null, 42, true, ['hi'], { text: 'hi' }, '', '   ', '\n\t ']) {
    const res = await f.post(message === undefined ? { targetAgentId: f.ann } : { message });
    assert.equal(res.statusCode, 400, JSON.stringify(message));
    assert.deepEqual(res.json(), M.message, JSON.stringify(message));
  }
  assert.deepEqual(f.rows(), [], 'no transcript entry');
  assert.equal(f.eventCount(), events, 'no event');
});

void test('Teams → POST /api/teams/:id/chat: only the literal setting value false closes the gate (404, nothing written); any other value or none lets the message in', async (t) => {
  const f = await chatFixture(t);
  const setting = `team-server-orchestrated:${f.teamId}`;
  f.runtime.deps.settingsTable.set(setting, 'false');
  const res = await f.post({ message: 'hello' });
  assert.equal(res.statusCode, 404);
  assert.deepEqual(res.json(), M.gated);
  assert.deepEqual(f.rows(), []);
  for (const value of ['true', 'FALSE', '0', 'no', '']) {
    f.runtime.deps.settingsTable.set(setting, value);
    const ok = await f.post({ message: `with ${JSON.stringify(value)}` });
    assert.equal(ok.statusCode, 202, `${value}: ${ok.body}`);
  }
  f.runtime.deps.settingsTable.delete(setting);
  assert.equal((await f.post({ message: 'absent' })).statusCode, 202);
  assert.equal(f.rows().filter((r) => r.entry.kind === 'user').length, 6);
});

void test('Teams → POST /api/teams/:id/chat: 202 { ok: true }; the trimmed message is the user entry under the target\'s team key, before the meta entry its failed delivery leaves', async (t) => {
  const f = await chatFixture(t);
  const res = await f.post({ message: '  Plan the launch  \n' });
  assert.equal(res.statusCode, 202, res.body);
  assert.deepEqual(res.json(), { ok: true });

  const user = lastUser(f);
  assert.equal(user.sessionKey, f.key(f.lead), 'no mention, no target: the team lead');
  assert.equal(user.entry.sessionKey, f.key(f.lead));
  assert.equal(user.entry.role, 'user');
  assert.equal(user.entry.kind, 'user');
  assert.equal(user.entry.text, 'Plan the launch');
  assert.equal(user.entry.source, 'local-send');
  assert.equal(user.entry.runId, null);
  assert.equal(user.entry.confirmed, true);
  assert.match(user.entry.entryId, /^user-[0-9a-f-]{36}$/, 'a minted entry id');
  for (const field of ['timestampMs', 'sequenceKey'] as const) assert.equal(typeof user.entry[field], 'number', field);
  assert.equal(typeof user.entry.fingerprint, 'string');

  // No gateway listens: the send fails, is retried once, then stored as a system/meta entry.
  const meta = await f.metaAfter(f.key(f.lead), user.id);
  assert.ok(meta.id > user.id, 'the user entry is persisted before the agent\'s turn');
  assert.ok(meta.entry.text.length > 0);
});

void test('Transcript entry (issue 17 #2): a client entryId is kept, and repeating it writes nothing and queues nothing new', async (t) => {
  const f = await chatFixture(t);
  const first = await f.post({ message: 'once', entryId: 'client-entry-1' });
  assert.equal(first.statusCode, 202);
  const user = lastUser(f);
  assert.equal(user.entry.entryId, 'client-entry-1');
  await f.metaAfter(f.key(f.lead), user.id);

  const again = await f.post({ message: 'once, resent', entryId: 'client-entry-1' });
  assert.equal(again.statusCode, 202, 'a repeat is still accepted');
  assert.deepEqual(again.json(), { ok: true });
  // The lead's deliveries run one at a time, in order: a delivery queued by
  // the repeat would end before this one does.
  const next = await f.post({ message: 'next', entryId: 'client-entry-2' });
  assert.equal(next.statusCode, 202);
  const nextUser = lastUser(f);
  await f.metaAfter(f.key(f.lead), nextUser.id);

  const rows = f.rows();
  assert.deepEqual(
    rows.filter((r) => r.entry.kind === 'user').map((r) => [r.entry.entryId, r.entry.text]),
    [['client-entry-1', 'once'], ['client-entry-2', 'next']],
    'the repeat wrote no entry',
  );
  assert.equal(rows.filter((r) => r.entry.kind === 'meta').length, 2, 'and queued no delivery');
});

void test('Limits (issue 17 #2): a 10,000-character message is accepted and stored whole', async (t) => {
  const f = await chatFixture(t);
  const message = `${'0123456789'.repeat(999)}abcdefghij`;
  assert.equal(message.length, 10_000);
  const res = await f.post({ message });
  assert.equal(res.statusCode, 202, res.body);
  const user = lastUser(f);
  assert.equal(user.entry.text, message);
  await f.metaAfter(f.key(f.lead), user.id);
});

void test('Teams → POST /api/teams/:id/chat: targeting: a roster targetAgentId, else a leading @mention (longest name, then whitespace or the end), else the lead', async (t) => {
  const f = await chatFixture(t);
  const other = await createTeam(f.app, { name: 'Other' });
  await assign(f.app, other, 'zed-1', 'Zed');
  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{ message: 'to Ann', targetAgentId: f.ann }, f.ann, 'an explicit roster member'],
    [{ message: 'to nobody', targetAgentId: 'zed-1' }, f.lead, 'a target that is not on the roster is ignored'],
    [{ message: 'to nobody', targetAgentId: 42 }, f.lead, 'a non-string target is ignored'],
    [{ message: '@Bob Stone can you look?' }, f.bob, 'a leading mention of a two-word name'],
    [{ message: '@ann\tlowercase' }, f.ann, 'a mention is case-insensitive and may end in any whitespace'],
    [{ message: '@Ann' }, f.ann, 'a message that is only a mention'],
    [{ message: '@Zed are you there?' }, f.lead, 'a mention of a name not on the roster goes to the lead'],
    [{ message: '@Annie hello' }, f.lead, 'a name must be followed by whitespace or the end'],
    [{ message: 'hello @Ann' }, f.lead, 'a mention elsewhere is ignored'],
    [{ message: '@Ann hello', targetAgentId: f.bob }, f.bob, 'an explicit target wins over a mention'],
  ];
  for (const [body, target, why] of cases) {
    const res = await f.post(body);
    assert.equal(res.statusCode, 202, `${why}: ${res.body}`);
    const user = lastUser(f);
    assert.equal(user.sessionKey, f.key(target), why);
    assert.equal(user.entry.text, body.message, why);
  }
});

void test('Teams → POST /api/teams/:id/chat: a team with no agent and no lead keeps the message and says so under the team\'s own key', async (t) => {
  const f = await chatFixture(t);
  const empty = await createTeam(f.app, { name: 'Empty' });
  const res = await f.post({ message: 'anyone?' }, empty);
  assert.equal(res.statusCode, 202, res.body);
  const user = lastUser(f);
  assert.equal(user.sessionKey, `team:${empty}`);
  const meta = await f.metaAfter(`team:${empty}`, user.id);
  assert.match(meta.entry.text, /No agent can answer/);
});

void test('Teams → POST /api/teams/:id/chat: a team id that does not exist is kept under its own key and sent to no one, even with a global lead set', async (t) => {
  const f = await chatFixture(t);
  const lead = await f.app.inject({ method: 'POST', url: '/api/lead/override', payload: { agentId: f.lead } });
  assert.equal(lead.statusCode, 200, lead.body);
  const res = await f.post({ message: 'hello?' }, 'no-such-team');
  assert.equal(res.statusCode, 202, res.body);
  const user = lastUser(f);
  assert.equal(user.sessionKey, 'team:no-such-team');
  const meta = await f.metaAfter('team:no-such-team', user.id);
  assert.match(meta.entry.text, /No agent can answer/);
  assert.equal(f.rows().filter((r) => r.sessionKey === `agent:${f.lead}:team:no-such-team`).length, 0, 'the global lead was sent nothing');
});

void test('Teams → POST /api/teams/:id/chat: a request whose client goes away at once still runs: the user entry and the delivery\'s meta entry appear', async (t) => {
  const f = await chatFixture(t);
  await f.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = f.app.server.address() as AddressInfo;
  const body = JSON.stringify({ message: 'left before the answer', entryId: 'gone-1' });
  await new Promise<void>((resolve) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: `/api/teams/${f.teamId}/chat`, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    // The whole request is sent, then the socket is destroyed without reading the answer.
    req.end(body, () => req.destroy());
  });
  const user = await waitFor(() => f.rows().find((r) => r.entry.entryId === 'gone-1'), { what: 'the user entry of the abandoned request' });
  assert.equal(user.sessionKey, f.key(f.lead));
  const meta = await f.metaAfter(f.key(f.lead), user.id);
  assert.ok(meta.id > user.id);
});

void test('Team chat run effects: POST /api/teams/:id/chat/stop answers 400 for a blank id, 404 when the gate is closed, and 200 { ok: true } when nothing runs or the team is unknown', async (t) => {
  const f = await chatFixture(t);
  const stop = (id: string) => f.app.inject({ method: 'POST', url: `/api/teams/${id}/chat/stop` });
  const blank = await stop('%20');
  assert.equal(blank.statusCode, 400);
  assert.deepEqual(blank.json(), M.teamId);

  f.runtime.deps.settingsTable.set(`team-server-orchestrated:${f.teamId}`, 'false');
  const gated = await stop(f.teamId);
  assert.equal(gated.statusCode, 404);
  assert.deepEqual(gated.json(), M.gated);
  f.runtime.deps.settingsTable.set(`team-server-orchestrated:${f.teamId}`, 'true');

  for (const id of [f.teamId, 'no-such-team']) {
    const res = await stop(id);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { ok: true });
  }
  assert.equal(f.runtime.deps.db.prepare("SELECT COUNT(*) FROM executions WHERE status = 'cancelled'").pluck().get(), 0, 'an idle team has nothing to cancel');
});
