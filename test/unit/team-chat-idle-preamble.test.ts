// Issue 32 #7: a user message to an idle team is sent with the preamble parts
// read while the team was idle (shared/team-chat/runs/idle-preamble.ts) and
// the entry it has just written. What the agent receives must be what a
// fresh read gives; a commit by any connection in between makes the parts
// stale. The host runs over a real SQLite file with a scripted gateway.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../shared/db/open.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import { preambleText, readPreambleParts } from '../../shared/team-chat/runs/preamble.ts';
import { createRulesStore } from '../../shared/teams/rules.ts';
import { fixture, type Fixture } from '../helpers/team-chat-scripted.ts';
import { waitFor } from '../helpers/wait.ts';

const S = 'Team chat (issue 32 #7, the idle preamble)';

/** Sends a message, answers it, and waits until the team is idle and its parts had their turn to be read. */
async function answered(f: Fixture, message: string, reply: string): Promise<void> {
  const n = f.gw.sends.length + 1;
  f.host.ingest({ teamId: f.teamId, message, entryId: `user-${n}` });
  await waitFor(() => f.gw.sends.length >= n, { what: `send ${n}` });
  f.gw.finish(f.gw.sends[n - 1]?.runId as string, reply);
  await waitFor(() => f.executions()[n - 1]?.status === 'completed', { what: `run ${n} to complete` });
  // The parts are read on a later turn of the event loop than the run's end.
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
}

async function send(f: Fixture, message: string): Promise<string> {
  const n = f.gw.sends.length + 1;
  f.host.ingest({ teamId: f.teamId, message, entryId: `user-${n}` });
  await waitFor(() => f.gw.sends.length >= n, { what: `send ${n}` });
  return f.gw.sends[n - 1]?.message as string;
}

void test(`${S}: the message after an idle run carries the preamble a fresh read gives, its own entry last in the recent chat`, async (t) => {
  const f = fixture(t);
  f.domain.briefs.putTeamBrief(f.teamId, 'Ship the beta.');
  await answered(f, 'first question', 'first answer');
  const sent = await send(f, 'second question');
  assert.equal(sent, preambleText(readPreambleParts(f.domain, f.teamId), 'second question'));
  assert.match(sent, /## Lead brief\nShip the beta\./);
  assert.match(sent, /User: first question\nWriter: first answer\nUser: second question\n\n\[Message\]\nsecond question$/);
});

void test(`${S}: what another connection commits while the team is idle is in the next message's preamble`, async (t) => {
  const f = fixture(t);
  await answered(f, 'first question', 'first answer');
  // As the HTTP routes do: another connection to the same file (the supervisor's thread).
  const other = openDatabase(f.db.name, { migrate: false });
  t.after(() => other.close());
  createRulesStore(createSettingsTable(other)).put(f.teamId, 'Answer in French.');
  const sent = await send(f, 'second question');
  assert.match(sent, /^\[Team rules\]\nAnswer in French\./);
  assert.equal(sent, preambleText(readPreambleParts(f.domain, f.teamId), 'second question'));
});

void test(`${S}: a board change made on the host's own connection while idle is in the next message's preamble`, async (t) => {
  const f = fixture(t);
  await answered(f, 'first question', 'first answer');
  f.domain.board.create({ title: 'Write the release notes', teamId: f.teamId });
  const sent = await send(f, 'second question');
  assert.match(sent, /## Board\n1 task: 1 todo\n- \[todo\] Write the release notes/);
});
