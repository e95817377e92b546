// The gateway's reload race in the team chat (shared/team-chat/runs/run.ts): a
// gateway preparing a new model runtime after a config change (svc's roster
// lists, model routing) ends a run that starts meanwhile at once with
// "generation was superseded" and nothing done. svc sends it again, up to
// three times; a run that had streamed text, or a fourth such error, fails
// as any gateway error does. The host runs over a real SQLite file with a
// scripted gateway connection (test/helpers/team-chat-scripted.ts): the race
// cannot be produced on demand on the real gateway.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { teamSessionKey } from '../../shared/team-chat/schemas.ts';
import { fixture, type Fixture } from '../helpers/team-chat-scripted.ts';
import { waitFor } from '../helpers/wait.ts';

const SUPERSEDED = 'model runtime generation was superseded';
const S = 'Team chat (issue 22, the reload race)';

const replies = (f: Fixture, key: string): string[] =>
  (f.db.prepare("SELECT entry FROM chat_messages WHERE session_key = ? AND json_extract(entry, '$.role') = 'assistant' ORDER BY id").pluck().all(key) as string[]).map(
    (e) => (JSON.parse(e) as { text: string }).text,
  );

async function nthSend(f: Fixture, n: number): Promise<string> {
  await waitFor(() => f.gw.sends.length >= n, { what: `send ${n}` });
  return f.gw.sends[n - 1]?.runId as string;
}

void test(`${S}: a run the gateway ends as superseded before any text is sent again; the second answer is the reply, the row completed, no failure note`, async (t) => {
  const f = fixture(t);
  const key = teamSessionKey('writer', f.teamId);
  f.host.ingest({ teamId: f.teamId, message: 'write it', entryId: 'user-1' });
  f.gw.error(await nthSend(f, 1), SUPERSEDED);
  const second = await nthSend(f, 2);
  assert.equal(f.gw.sends[1]?.sessionKey, f.gw.sends[0]?.sessionKey, 'the same session');
  f.gw.finish(second, 'Here it is');
  await waitFor(() => f.executions()[0]?.status !== 'running', { what: 'the run to end' });
  const rows = f.executions();
  assert.equal(rows.length, 1, 'one run, sent twice');
  assert.deepEqual([rows[0]?.status, rows[0]?.runId, rows[0]?.error], ['completed', second, null]);
  assert.deepEqual(replies(f, key), ['Here it is']);
  assert.deepEqual(f.notes(key), []);
  assert.deepEqual(f.errorEvents(), []);
  assert.equal(f.domain.agents.get('writer')?.status, 'idle');
});

void test(`Team chat (issue 30, attach): a run the gateway ends while it closes a session's MCP servers for a new config is sent again; the second answer is the reply`, async (t) => {
  const f = fixture(t);
  const key = teamSessionKey('writer', f.teamId);
  f.host.ingest({ teamId: f.teamId, message: 'write it', entryId: 'user-1' });
  f.gw.error(await nthSend(f, 1), 'MCP runtime cleanup could not confirm closure');
  const second = await nthSend(f, 2);
  f.gw.finish(second, 'Here it is');
  await waitFor(() => f.executions()[0]?.status !== 'running', { what: 'the run to end' });
  assert.deepEqual([f.executions()[0]?.status, f.executions()[0]?.error], ['completed', null]);
  assert.deepEqual(replies(f, key), ['Here it is']);
  assert.deepEqual(f.notes(key), []);
});

void test(`${S}: superseded four times in a row fails the run as a gateway error (three resends, then the note)`, async (t) => {
  const f = fixture(t);
  const key = teamSessionKey('writer', f.teamId);
  f.host.ingest({ teamId: f.teamId, message: 'write it', entryId: 'user-1' });
  for (let n = 1; n <= 4; n++) f.gw.error(await nthSend(f, n), SUPERSEDED);
  await waitFor(() => f.executions()[0]?.status !== 'running', { what: 'the run to end' });
  assert.equal(f.gw.sends.length, 4);
  assert.deepEqual([f.executions()[0]?.status, f.executions()[0]?.error], ['error', SUPERSEDED]);
  assert.deepEqual(f.notes(key), [`Could not deliver to Writer: ${SUPERSEDED}`]);
  assert.equal(f.domain.agents.get('writer')?.status, 'error');
});

void test(`${S}: a run that had streamed text is not sent again: what streamed is kept and the error is shown`, async (t) => {
  const f = fixture(t);
  const key = teamSessionKey('writer', f.teamId);
  f.host.ingest({ teamId: f.teamId, message: 'write it', entryId: 'user-1' });
  f.gw.error(await nthSend(f, 1), SUPERSEDED, 'Half of it');
  await waitFor(() => f.executions()[0]?.status !== 'running', { what: 'the run to end' });
  assert.equal(f.gw.sends.length, 1, 'no resend after text');
  assert.equal(f.executions()[0]?.status, 'error');
  assert.deepEqual(replies(f, key), ['Half of it']);
  assert.deepEqual(f.notes(key), [`Could not deliver to Writer: ${SUPERSEDED}`]);
});

void test(`${S}: another gateway error is not sent again`, async (t) => {
  const f = fixture(t);
  f.host.ingest({ teamId: f.teamId, message: 'write it', entryId: 'user-1' });
  f.gw.error(await nthSend(f, 1), 'provider exploded');
  await waitFor(() => f.executions()[0]?.status !== 'running', { what: 'the run to end' });
  assert.equal(f.gw.sends.length, 1);
  assert.deepEqual([f.executions()[0]?.status, f.executions()[0]?.error], ['error', 'provider exploded']);
});
