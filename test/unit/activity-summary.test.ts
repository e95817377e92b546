// Spec "GET /api/teams/:id/activity-summary" and "Limits": the pieces of the
// snapshot: recent chat fitted to what is left of the 2500-character budget
// (oldest dropped first) and the board summary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { BOARD_OPEN_LISTED, CHAT_TURNS_MAX, boardSummary, composeSummary, fitTurns, type TeamMemorySource } from '../../shared/teams/activity-summary.ts';
import type { Task, TaskStatus } from '../../shared/board/types.ts';
import { createChatMessages } from '../../shared/db/chat-messages.ts';
import { openDatabase } from '../../shared/db/open.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import { createTx } from '../../shared/db/tx.ts';
import { createDomain } from '../../shared/domain.ts';
import { createEventLog } from '../../shared/events/event-log.ts';
import { createLogger } from '../../shared/log.ts';
import { teamSessionKey } from '../../shared/team-chat/schemas.ts';

/** Turns newest first, as fitTurns takes them; ids descend. */
const turns = (...lines: string[]) => lines.map((line, i) => ({ id: lines.length - i, line }));

let seq = 0;
function task(over: Partial<Task> & { status?: TaskStatus } = {}): Task {
  seq += 1;
  return {
    id: `t${seq}`,
    teamId: 'team',
    title: `Task ${seq}`,
    description: '',
    status: 'todo',
    assigneeAgentId: null,
    createdByAgentId: null,
    parentTaskId: null,
    runtime: null,
    costUsd: 0,
    createdAt: seq,
    updatedAt: seq,
    claimedAt: null,
    completedAt: null,
    dependsOn: [],
    ...over,
  };
}

// ---------------------------------------------------------------- fitTurns

void test('Limits: fitTurns returns null for no turns', () => {
  assert.equal(fitTurns([], 2500), null);
  assert.equal(fitTurns([], 0), null);
});

void test('Limits: fitTurns keeps every turn that fits, in chronological order (newest last)', () => {
  assert.equal(fitTurns(turns('C: third', 'B: second', 'A: first'), 2500), 'A: first\nB: second\nC: third');
  assert.equal(fitTurns(turns('only'), 2500), 'only');
});

void test('Limits: fitTurns counts the newline separators against the budget exactly', () => {
  const t = turns('ccccc', 'bbbbb', 'aaaaa'); // 5 + 1 + 5 + 1 + 5 = 17 characters in all
  assert.equal(fitTurns(t, 17), 'aaaaa\nbbbbb\nccccc', 'exactly the budget: all kept');
  assert.equal(fitTurns(t, 16), 'bbbbb\nccccc', 'one short: the oldest is dropped');
  assert.equal(fitTurns(t, 11), 'bbbbb\nccccc');
  assert.equal(fitTurns(t, 10), 'ccccc');
  assert.equal(fitTurns(t, 5), 'ccccc', 'the newest alone, exactly the budget');
  for (const budget of [5, 10, 11, 16, 17, 100]) {
    const out = fitTurns(t, budget);
    assert.ok(out !== null && out.length <= budget, `budget ${budget}: ${out?.length}`);
  }
});

void test('Limits: fitTurns drops the oldest first and never skips to an older, shorter turn', () => {
  // The middle turn does not fit; the older short one would, but turns stay contiguous.
  assert.equal(fitTurns(turns('new', 'x'.repeat(50), 'old'), 20), 'new');
  const many = turns(...Array.from({ length: 10 }, (_, i) => `turn ${9 - i}`)); // newest "turn 9" first
  assert.equal(fitTurns(many, 6 * 3 + 2), 'turn 7\nturn 8\nturn 9');
});

void test('Limits: fitTurns clips a newest turn that alone exceeds the budget, only when more than 20 characters are left', () => {
  const long = `${'a'.repeat(30)}${'b'.repeat(30)}`;
  const clipped = fitTurns(turns(long, 'older'), 21);
  assert.equal(clipped, `${'a'.repeat(20)}…`);
  assert.equal(clipped.length, 21);
  assert.equal(fitTurns(turns(long), 40)?.length, 40);
  assert.ok(fitTurns(turns(long), 40)?.endsWith('…'));
  assert.equal(fitTurns(turns(long), 20), null, '20 left: nothing rather than a stub');
  assert.equal(fitTurns(turns(long), 0), null);
  assert.equal(fitTurns(turns(long), -100), null, 'a negative budget (the other sections used it all) gives null');
  assert.equal(fitTurns(turns('short'), -1), null);
});

// ---------------------------------------------------------------- boardSummary

void test('Teams: boardSummary is null for an empty board', () => {
  assert.equal(boardSummary([]), null);
});

void test('Teams: boardSummary counts tasks per status in board order, omitting empty statuses', () => {
  assert.equal(boardSummary([task({ title: 'Solo' })]), '1 task: 1 todo\n- [todo] Solo');
  const tasks = [
    task({ status: 'done', title: 'D1' }),
    task({ status: 'blocked', title: 'B1' }),
    task({ status: 'todo', title: 'T1' }),
    task({ status: 'done', title: 'D2' }),
    task({ status: 'cancelled', title: 'C1' }),
    task({ status: 'in_progress', title: 'P1' }),
    task({ status: 'todo', title: 'T2' }),
  ];
  const first = boardSummary(tasks)?.split('\n')[0];
  assert.equal(first, '7 tasks: 2 todo, 1 in_progress, 2 done, 1 blocked, 1 cancelled');
});

void test('Teams: boardSummary lists open tasks most recently updated first, never done or cancelled ones', () => {
  const tasks = [
    task({ status: 'todo', title: 'old todo', updatedAt: 100 }),
    task({ status: 'done', title: 'finished', updatedAt: 900 }),
    task({ status: 'cancelled', title: 'dropped', updatedAt: 800 }),
    task({ status: 'in_review', title: 'review me', updatedAt: 500, assigneeAgentId: 'alice' }),
    task({ status: 'blocked', title: 'stuck', updatedAt: 300 }),
  ];
  assert.equal(
    boardSummary(tasks),
    ['5 tasks: 1 todo, 1 in_review, 1 done, 1 blocked, 1 cancelled', '- [in_review] review me (alice)', '- [blocked] stuck', '- [todo] old todo'].join('\n'),
  );
  assert.equal(boardSummary([task({ status: 'done', title: 'all done' })]), '1 task: 1 done', 'closed tasks are only counted');
});

void test('Teams: boardSummary lists at most BOARD_OPEN_LISTED open tasks and counts the rest', () => {
  const tasks = Array.from({ length: BOARD_OPEN_LISTED + 5 }, (_, i) => task({ title: `open ${i}`, updatedAt: 1000 + i }));
  const lines = boardSummary(tasks)?.split('\n') ?? [];
  assert.equal(lines[0], `${BOARD_OPEN_LISTED + 5} tasks: ${BOARD_OPEN_LISTED + 5} todo`);
  assert.equal(lines.length, 1 + BOARD_OPEN_LISTED);
  const newest = BOARD_OPEN_LISTED + 4;
  assert.deepEqual(
    lines.slice(1),
    Array.from({ length: BOARD_OPEN_LISTED }, (_, k) => `- [todo] open ${newest - k}`),
  );
});

void test('Teams: boardSummary puts each title on one line and clips it to 80 characters', () => {
  const out = boardSummary([task({ title: '  Fix\nthe   build\tnow  ' }), task({ title: 'x'.repeat(200), updatedAt: -1 })]);
  const lines = out?.split('\n') ?? [];
  assert.equal(lines[1], '- [todo] Fix the build now');
  const clipped = lines[2]?.slice('- [todo] '.length) ?? '';
  assert.equal(clipped.length, 80);
  assert.equal(clipped, `${'x'.repeat(79)}…`);
  assert.equal(boardSummary([task({ title: 'y'.repeat(80) })]), `1 task: 1 todo\n- [todo] ${'y'.repeat(80)}`, 'exactly 80 kept whole');
});

// ---------------------------------------------------------------- saved memory

/** The domain over an in-memory database, with a chosen memory source; log lines are captured. */
function domainWith(t: TestContext, memory: TeamMemorySource) {
  const db = openDatabase(':memory:');
  t.after(() => db.close());
  const logs: string[] = [];
  const logger = createLogger({ level: 'info' }, { write: (s: string) => void logs.push(s) });
  const tx = createTx(db, () => undefined);
  const settingsTable = createSettingsTable(db);
  const domain = createDomain({ db, tx, settingsTable, eventLog: createEventLog({ db, tx, logger }), logger, memory });
  const team = domain.teams.create({ name: 'Alpha', icon: 'x', color: '#000' });
  return { domain, team: team.id, logs };
}

void test('Teams: activity summary places saved memory after the board, kept whole', (t) => {
  const saved = `Decided: ${'m'.repeat(1200)}`;
  const { domain, team } = domainWith(t, { forTeam: (id) => (id === team ? saved : null) });
  domain.board.create({ title: 'A task', teamId: team });
  domain.briefs.putTeamBrief(team, 'Brief.');
  assert.equal(domain.activitySummary(team), `## Lead brief\nBrief.\n\n## Board\n1 task: 1 todo\n- [todo] A task\n\n## Memory\n${saved}`);
});

void test('Teams: activity summary swallows a memory-store failure and omits only that section', (t) => {
  const { domain, team, logs } = domainWith(t, {
    forTeam: () => {
      throw new Error('memory store is down');
    },
  });
  assert.equal(domain.activitySummary(team), null, 'nothing else to say: null, not a throw');
  domain.briefs.putTeamBrief(team, 'Still here.');
  assert.equal(domain.activitySummary(team), '## Lead brief\nStill here.');
  assert.ok(logs.some((l) => l.includes('memory store failed')), 'the failure is logged');
});

// ---------------------------------------------------------------- parts, then newer rows (issue 32 #7)

/** A team of two over an in-memory database, with a transcript writer for its sessions. */
function chattingTeam(t: TestContext) {
  const db = openDatabase(':memory:');
  t.after(() => db.close());
  const logger = createLogger({ level: 'warn' }, { write: () => undefined });
  const tx = createTx(db, () => undefined);
  const domain = createDomain({ db, tx, settingsTable: createSettingsTable(db), eventLog: createEventLog({ db, tx, logger }), logger });
  const team = domain.teams.create({ name: 'Alpha', icon: 'x', color: '#000' }).id;
  domain.agents.create({ id: 'ann', name: 'Ann', teamId: team });
  domain.agents.create({ id: 'bo', name: 'Bo', teamId: team });
  const chat = createChatMessages(db, tx);
  let n = 0;
  const say = (agentId: string, role: 'user' | 'assistant', text: string) =>
    chat.insert(teamSessionKey(agentId, team), [{ entryId: `e${++n}`, role, kind: 'message', text }]);
  return { domain, team, say };
}

void test('Teams: the summary made from parts read earlier and the rows written since is the summary read now', (t) => {
  const { domain, team, say } = chattingTeam(t);
  domain.briefs.putTeamBrief(team, 'Ship the beta.');
  domain.board.create({ title: 'Write the notes', teamId: team });
  say('ann', 'user', 'hello Ann');
  say('ann', 'assistant', 'hi there');
  const parts = domain.activitySummary.parts(team);
  assert.equal(composeSummary(parts), domain.activitySummary(team), 'no newer rows: the same text');
  const rows = [...say('bo', 'user', 'Bo, the   release\nnotes?'), ...say('bo', 'assistant', 'on it')];
  const now = domain.activitySummary(team);
  assert.equal(composeSummary(parts, rows), now);
  assert.match(now ?? '', /User: hello Ann\nAnn: hi there\nUser: Bo, the release notes\?\nBo: on it$/);
});

void test('Teams: with the chat budget full, a newer row pushes the oldest turns out as a fresh read does', (t) => {
  const { domain, team, say } = chattingTeam(t);
  for (let i = 0; i < 20; i++) say(i % 2 ? 'bo' : 'ann', i % 3 ? 'assistant' : 'user', `turn ${i} ${'w'.repeat(150)}`);
  const parts = domain.activitySummary.parts(team);
  const rows = say('ann', 'user', `the newest ${'n'.repeat(400)}`);
  assert.equal(composeSummary(parts, rows), domain.activitySummary(team));
  assert.ok((domain.activitySummary(team) ?? '').length <= 2500);
});

void test('Teams: a newer row keeps the chat at CHAT_TURNS_MAX turns, and one longer than the budget is clipped, as a fresh read does', (t) => {
  const { domain, team, say } = chattingTeam(t);
  for (let i = 0; i < CHAT_TURNS_MAX; i++) say('ann', 'user', `t${i}`);
  const parts = domain.activitySummary.parts(team);
  const rows = say('bo', 'user', 'one more');
  const fresh = domain.activitySummary(team);
  assert.equal(composeSummary(parts, rows), fresh);
  assert.equal((fresh ?? '').split('\n').length - 1, CHAT_TURNS_MAX, 'the header and 30 turns');
  const long = say('bo', 'user', 'x'.repeat(4000));
  assert.equal(composeSummary(domain.activitySummary.parts(team), long), domain.activitySummary(team));
});

void test('Teams: rows of a session that is not the team\'s are not turns of its summary', (t) => {
  const { domain, team, say } = chattingTeam(t);
  say('ann', 'user', 'ours');
  const parts = domain.activitySummary.parts(team);
  assert.equal(composeSummary(parts, [{ sessionKey: teamSessionKey('ann', 'another-team'), entry: JSON.stringify({ role: 'user', text: 'theirs' }) }]), composeSummary(parts));
});
