// The team chat stream's tier 2 (spec "GET /api/teams/:id/chat/stream"):
// named frames without an id line, fanned out per team, encoded once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TeamFrames, teamFrame } from '../../supervisor/http/team-stream-hub.ts';

void test('SSE streams (issue 17 #6): a tier-2 frame is an `event:` line and one `data:` line, with no `id:` line', () => {
  const text = 'line one\nline two';
  const f = teamFrame('delta', { sessionKey: 'agent:a:team:t', runId: 'r1', text, agentId: 'a' });
  assert.equal(f, `event: delta\ndata: ${JSON.stringify({ sessionKey: 'agent:a:team:t', runId: 'r1', text, agentId: 'a' })}\n\n`);
  assert.equal(f.split('\n').length, 4, 'a newline in the text stays inside the JSON');
  assert.ok(!f.includes('id: '));
  assert.equal(teamFrame('status', { agentId: 'a', status: 'running' }), 'event: status\ndata: {"agentId":"a","status":"running"}\n\n');
});

void test('SSE streams (issue 17 #6): frames reach the streams of their team only, in publish order, and a closed stream is dropped', () => {
  const frames = new TeamFrames();
  const a1: string[] = [];
  const a2: string[] = [];
  const b: string[] = [];
  let a2Open = true;
  const offA1 = frames.subscribe('team-a', (c) => (a1.push(c), true));
  frames.subscribe('team-a', (c) => (a2Open ? (a2.push(c), true) : false));
  frames.subscribe('team-b', (c) => (b.push(c), true));
  assert.equal(frames.count('team-a'), 2);
  assert.equal(frames.count(), 3);

  frames.publish('team-a', 'status', { agentId: 'x', status: 'running' });
  frames.publish('team-a', 'delta', { sessionKey: 'k', runId: 'r', text: 'He', agentId: 'x' });
  frames.publish('team-a', 'delta', { sessionKey: 'k', runId: 'r', text: 'Hello', agentId: 'x' });
  frames.publish('team-b', 'board', { id: 'task-1', title: 'T', status: 'todo' });
  frames.publish('team-c', 'status', { agentId: 'nobody', status: 'idle' });

  const events = (xs: string[]) => xs.map((x) => x.split('\n')[0]);
  assert.deepEqual(events(a1), ['event: status', 'event: delta', 'event: delta']);
  assert.deepEqual(a2, a1, 'every stream of the team gets the same frames');
  assert.deepEqual(events(b), ['event: board']);
  assert.ok(a1[2]?.includes('"text":"Hello"'));

  a2Open = false;
  frames.publish('team-a', 'room', { id: 1, authorAgentId: 'x', text: 'hi', createdAt: 1, exchangeId: null });
  assert.equal(frames.count('team-a'), 1, 'the stream whose write failed is gone');
  offA1();
  assert.equal(frames.has('team-a'), false);
  assert.equal(frames.count(), 1);
});
