// Issue 23 item 5, the pure half: which svc column a Workboard status shows
// in, which svc agent and teams a card belongs to, and how a
// `workboard.cards.list` reply becomes GET /api/workboard's view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TASK_STATUSES } from '../../shared/board/types.ts';
import { DomainError } from '../../shared/errors.ts';
import { columnOf } from '../../shared/workboard/columns.ts';
import { WorkboardView } from '../../shared/workboard/schemas.ts';
import { ownerLookup } from '../../shared/workboard/teams.ts';
import { checkDispatch, checkMove, DISABLED, requireCard, snapshotOf, toView } from '../../shared/workboard/view.ts';

const WB_STATUSES = ['triage', 'backlog', 'todo', 'scheduled', 'ready', 'running', 'review', 'blocked', 'done'];

void test('Delegation (issue 23, item 5): every Workboard status maps to an svc board column; not started is To do, running In progress, review In review; an unknown status still shows (To do)', () => {
  assert.deepEqual(
    Object.fromEntries(WB_STATUSES.map((s) => [s, columnOf(s)])),
    { triage: 'todo', backlog: 'todo', todo: 'todo', scheduled: 'todo', ready: 'todo', running: 'in_progress', review: 'in_review', blocked: 'blocked', done: 'done' },
  );
  for (const s of WB_STATUSES) assert.ok((TASK_STATUSES as readonly string[]).includes(columnOf(s)));
  assert.equal(columnOf('parked'), 'todo');
  assert.equal(columnOf('constructor'), 'todo', 'an inherited property name is not a status');
});

void test('Delegation (issue 23, item 5): a card\'s gateway agent maps to the svc agent with that gatewayId (else that id); its teams are its own and those it leads; unknown or teamless agents have none', () => {
  const agents = [
    { id: 'svc-ada', gatewayId: 'ada', teamId: 'team-a' },
    { id: 'bob', gatewayId: 'bob', teamId: 'team-a' },
    { id: 'cy', gatewayId: null, teamId: 'team-b' },
    { id: 'loner', gatewayId: 'loner', teamId: null },
  ];
  const teams = [
    { id: 'team-a', leaderAgentId: 'svc-ada' },
    { id: 'team-b', leaderAgentId: 'svc-ada' },
    { id: 'team-c', leaderAgentId: null },
  ];
  const owner = ownerLookup(agents, teams);
  assert.deepEqual(owner('ada'), { agentId: 'svc-ada', teamIds: ['team-a', 'team-b'] }, 'member of A, leads A and B');
  assert.deepEqual(owner('bob'), { agentId: 'bob', teamIds: ['team-a'] });
  assert.deepEqual(owner('cy'), { agentId: 'cy', teamIds: ['team-b'] }, 'no gatewayId: matched by its own id');
  assert.deepEqual(owner('loner'), { agentId: 'loner', teamIds: [] }, 'in no team');
  assert.deepEqual(owner('zed'), { agentId: 'zed', teamIds: [] }, 'unknown to svc: the gateway id as given');
});

void test('Delegation (issue 23, item 5): a cards.list reply becomes the view: source badge, column, run refs from the card or its execution; ?teamId= keeps that team\'s cards; unreadable cards are left out', () => {
  const reply = {
    cards: [
      { id: 'c1', title: 'Write the brief', status: 'ready', agentId: 'ada', updatedAt: 5, priority: 'normal', metadata: {} },
      { id: 'c2', title: 'Review', status: 'review', agentId: 'ada', execution: { sessionKey: 'agent:ada:subagent:workboard-default-c2', runId: 'workboard:c2:1' } },
      { id: 'c3', title: 'Nobody\'s', status: 'triage' },
      { id: 'c4', title: 'Zed\'s', status: 'running', agentId: 'zed', sessionKey: 'agent:zed:subagent:workboard-default-c4', runId: 'r4' },
      { title: 'no id', status: 'todo' },
    ],
    boards: [],
    statuses: WB_STATUSES,
  };
  const parsed = snapshotOf(reply);
  assert.ok(parsed);
  assert.equal(parsed.skipped, 1);
  const owner = ownerLookup([{ id: 'ada', gatewayId: 'ada', teamId: 't1' }], [{ id: 't1', leaderAgentId: 'ada' }]);
  const all = WorkboardView.parse(toView(parsed.snapshot, owner));
  assert.equal(all.enabled, true);
  assert.deepEqual(all.statuses, WB_STATUSES);
  assert.deepEqual(all.cards.map((c) => [c.id, c.column, c.agentId, c.teamIds, c.sessionKey, c.runId, c.source, c.updatedAt]), [
    ['c1', 'todo', 'ada', ['t1'], null, null, 'workboard', 5],
    ['c2', 'in_review', 'ada', ['t1'], 'agent:ada:subagent:workboard-default-c2', 'workboard:c2:1', 'workboard', null],
    ['c3', 'todo', null, [], null, null, 'workboard', null],
    ['c4', 'in_progress', 'zed', [], 'agent:zed:subagent:workboard-default-c4', 'r4', 'workboard', null],
  ]);
  assert.deepEqual(toView(parsed.snapshot, owner, 't1').cards.map((c) => c.id), ['c1', 'c2']);
  assert.deepEqual(toView(parsed.snapshot, owner, 'other').cards, []);
  assert.deepEqual(toView(DISABLED, owner), { enabled: false, cards: [], statuses: [] });
  assert.equal(snapshotOf({ boards: [] }), null, 'not a cards.list reply');
});

void test('Delegation (issue 23, item 5): the write rules: 409 when Workboard is off, 400 for a status the gateway did not list, 404 for an unknown card, 409 dispatching a card that is not ready', () => {
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      assert.ok(err instanceof DomainError);
      return [err.kind, err.message];
    }
    return null;
  };
  const s = snapshotOf({ cards: [{ id: 'c1', title: 't', status: 'todo' }], statuses: WB_STATUSES })?.snapshot;
  assert.ok(s);
  assert.deepEqual(refusal(() => checkMove(DISABLED, 'done')), ['conflict', 'Workboard is not enabled on the gateway']);
  assert.deepEqual(refusal(() => checkMove(s, 'shipped')), ['invalid', 'unknown status']);
  assert.equal(refusal(() => checkMove(s, 'done')), null);
  assert.deepEqual(refusal(() => requireCard(s, 'nope')), ['not_found', 'card not found']);
  assert.deepEqual(refusal(() => requireCard(DISABLED, 'c1')), ['conflict', 'Workboard is not enabled on the gateway']);
  assert.deepEqual(refusal(() => checkDispatch(requireCard(s, 'c1'))), ['conflict', 'only a ready card can be dispatched (this one is todo)']);
  assert.equal(refusal(() => checkDispatch({ ...requireCard(s, 'c1'), status: 'ready' })), null);
});
