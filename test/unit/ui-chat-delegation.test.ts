// Issue 23 item 6 (brief D), the team chat page's grouping of native
// delegation: a hand-over owns the child's entries and live text whatever
// order they arrived in; a child entry without its hand-over stands alone,
// marked as a sub-agent's; the lead's announce continuation is a lead bubble
// in time order, marked with the child; the hand-over's status and cost; the
// frame fields the page reads. Plain functions: no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TranscriptEntry } from '../../shared/team-chat/schemas.ts';
import {
  anyoneRunning, chatReducer, formatUsd, groupDelegations, handoversOf, initialChatState, parseDeltaFrame, parseRowFrame, teamSessionKey,
  transcriptItems, type ChatAction, type ChatItem, type ChatState, type DelegationView,
} from '../../ui/src/features/chat/index.ts';
import { fc } from '../helpers/fc.ts';

const S = 'Delegation (issue 23, item 6)';
const TEAM = 'team-d';
const LEAD = 'lea';
const CHILD = 'res';
const leadKey = teamSessionKey(LEAD, TEAM);
const childKey = `agent:${CHILD}:subagent:11111111-2222-3333-4444-555555555555`;
const grandKey = `agent:wri:subagent:99999999-2222-3333-4444-555555555555`;
const childRun = 'child-run-1';
const announceRun = `announce:v1:${childKey}:${childRun}`;

let seq = 5000;
function entry(over: Partial<TranscriptEntry> & Pick<TranscriptEntry, 'entryId'>): TranscriptEntry {
  seq += 1;
  return {
    role: 'assistant', kind: 'message', text: 'hi', sessionKey: leadKey, runId: null, source: 'team-chat', timestampMs: seq,
    sequenceKey: seq, confirmed: true, fingerprint: '', teamId: TEAM, agentId: LEAD, ...over,
  };
}
const userMsg = () => entry({ entryId: 'u1', role: 'user', kind: 'user', text: 'TOOL@lea: sessions_spawn {...}', runId: null });
const leadReply = () => entry({ entryId: 'run-lead-1', runId: 'lead-1', text: 'Tool said: accepted' });
const handover = (key = childKey, parentKey = leadKey, agentId = LEAD) =>
  entry({
    entryId: `spawn-${key}`, role: 'system', kind: 'meta', text: `Lea handed “Research the topic” to Res`, sessionKey: parentKey, runId: 'lead-1',
    agentId, trigger: 'spawn', childSessionKey: key, label: 'Research the topic',
  });
const childReply = (costUsd = 0.0012) =>
  entry({ entryId: `run-${childRun}`, runId: childRun, sessionKey: childKey, agentId: CHILD, text: 'ECHO: findings\nmore', trigger: 'spawn', parentRunId: 'lead-1', parentSessionKey: leadKey, costUsd });
const childNote = (text: string) =>
  entry({ entryId: `note-${childRun}`, role: 'system', kind: 'meta', runId: childRun, sessionKey: childKey, agentId: CHILD, text, trigger: 'spawn', parentRunId: 'lead-1', parentSessionKey: leadKey });
const announce = () =>
  entry({ entryId: `run-${announceRun}`, runId: announceRun, text: 'Res found it: findings', trigger: 'announce', parentRunId: childRun, parentSessionKey: childKey });
const refused = () =>
  entry({ entryId: 'spawn-refused-call-7', role: 'system', kind: 'meta', text: 'Lea could not hand “x” to stranger: agentId is not allowed for sessions_spawn', trigger: 'spawn' });

let rowId = 0;
const row = (e: TranscriptEntry): ChatAction => ({ type: 'row', frame: { id: ++rowId, entry: e } });
const childDelta = (text: string): ChatAction => ({ type: 'delta', frame: { sessionKey: childKey, runId: childRun, text, agentId: CHILD } });
const status = (agentId: string, s: 'running' | 'idle' | 'error'): ChatAction => ({ type: 'status', frame: { agentId, status: s } });
const run = (...actions: ChatAction[]): ChatState => actions.reduce(chatReducer, initialChatState(TEAM));
const view = (s: ChatState): DelegationView => groupDelegations(transcriptItems(s), { live: s.live, statuses: s.statuses, stoppedChildKeys: s.stoppedChildKeys });

/** The view as nested ids: an entry's id, a hand-over as [its id, ...what it holds]. */
type Shape = string | Shape[];
const shape = (items: readonly ChatItem[]): Shape[] =>
  items.map((it) => (it.type === 'handover' ? [it.key, ...shape(it.handover.items)] : it.type === 'entry' ? it.key : it.type));

void test(`${S}: the frames carry the delegation fields the page reads (delta agentId; entry parent/child refs, label, cost)`, () => {
  assert.deepEqual(parseDeltaFrame(JSON.stringify({ sessionKey: childKey, runId: 'r', text: 'a', agentId: CHILD })), { sessionKey: childKey, runId: 'r', text: 'a', agentId: CHILD });
  const h = handover();
  assert.deepEqual(parseRowFrame(JSON.stringify(h), '4')?.entry, h);
  const c = childReply();
  assert.deepEqual(parseRowFrame(JSON.stringify(c), '5')?.entry, c);
  // A cost that is not a number is dropped, not shown as NaN.
  assert.equal(parseRowFrame(JSON.stringify({ ...c, costUsd: 'lots' }), '6')?.entry.costUsd, undefined);
});

void test(`${S}: the hand-over owns the child's live text and reply; the lead's announce run is a lead bubble after it, marked with the child`, () => {
  // While the child runs: the live text is inside the hand-over, never a bubble of the team's own.
  let s = run(row(userMsg()), status(LEAD, 'running'), row(handover()), row(leadReply()), status(LEAD, 'idle'), status(CHILD, 'running'), childDelta('ECHO: fin'));
  let v = view(s);
  assert.deepEqual(shape(v.items), ['u1', [`spawn-${childKey}`], 'run-lead-1']);
  assert.deepEqual(v.live, [], 'no top-level live bubble for the child');
  let [h] = handoversOf(v.items);
  assert.equal(h?.live?.text, 'ECHO: fin');
  assert.equal(h?.status, 'running');
  assert.equal(h?.childAgentId, CHILD);
  assert.equal(h?.costUsd, null);
  assert.equal(anyoneRunning(s), true, 'Stop stays offered while the child runs');
  assert.deepEqual(s.notices, [], 'the lead handed the work over: no "finished without a reply"');

  // The reply lands inside with its cost; the lead continues.
  s = [row(childReply()), status(CHILD, 'idle'), status(LEAD, 'running'), row(announce()), status(LEAD, 'idle')].reduce(chatReducer, s);
  v = view(s);
  assert.deepEqual(shape(v.items), ['u1', [`spawn-${childKey}`, `run-${childRun}`], 'run-lead-1', `run-${announceRun}`]);
  [h] = handoversOf(v.items);
  assert.equal(h?.status, 'done');
  assert.equal(h?.live, null);
  assert.equal(h?.costUsd, 0.0012);
  assert.equal(formatUsd(h?.costUsd ?? 0), '$0.0012');
  assert.equal(h?.reply?.entryId, `run-${childRun}`);
  const cont = v.items.find((i) => i.key === `run-${announceRun}`);
  assert.deepEqual(cont?.type === 'entry' && cont.continuing, { childAgentId: CHILD });
  assert.deepEqual(s.notices, []);
});

void test(`${S}: a child entry whose hand-over is not held stands alone, marked as a sub-agent's; the announce run still names the child`, () => {
  const v = view(run(row(childReply()), row(announce())));
  assert.deepEqual(shape(v.items), [`run-${childRun}`, `run-${announceRun}`]);
  const [orphan, cont] = v.items;
  assert.equal(orphan?.type === 'entry' && orphan.subAgent, true);
  assert.deepEqual(cont?.type === 'entry' && cont.continuing, { childAgentId: CHILD });
  // Without the child's reply either: the announce run id names the child's session, so its gateway id.
  const bare = view(run(row(announce()))).items[0];
  assert.deepEqual(bare?.type === 'entry' && bare.continuing, { childAgentId: CHILD });
  // A child's live text without its hand-over: a bubble of its own, under the child's name (not the lead's).
  const live = view(run(status(CHILD, 'running'), childDelta('ECHO: x'))).live;
  assert.deepEqual(live.map((b) => [b.sessionKey, b.agentId]), [[childKey, CHILD]]);
});

void test(`${S}: depth 2: a hand-over made in the child's session nests under the child's hand-over, with its own child inside`, () => {
  const inner = handover(grandKey, childKey, CHILD);
  const grandReply = entry({ entryId: 'run-g1', runId: 'g1', sessionKey: grandKey, agentId: 'wri', trigger: 'spawn', parentSessionKey: childKey, costUsd: 0.5 });
  const v = view(run(row(handover()), row(inner), row(grandReply), row(childReply())));
  assert.deepEqual(shape(v.items), [[`spawn-${childKey}`, [`spawn-${grandKey}`, 'run-g1'], `run-${childRun}`]]);
  const [outer, nested] = handoversOf(v.items);
  assert.equal(outer?.costUsd, 0.0012, "the child's own cost (the grandchild's shows on its own hand-over)");
  assert.equal(nested?.costUsd, 0.5);
  assert.equal(nested?.childAgentId, 'wri');
  // The inner hand-over not held: the grandchild's entry still nests under the child (its parentSessionKey), marked as a sub-agent's.
  const loose = view(run(row(handover()), row(grandReply)));
  assert.deepEqual(shape(loose.items), [[`spawn-${childKey}`, 'run-g1']]);
  const g = handoversOf(loose.items)[0]?.items[0];
  assert.equal(g?.type === 'entry' && g.subAgent, true);
});

void test(`${S}: status: a note under the child key is "failed"; after the person's Stop (or a note saying so) it is "stopped"`, () => {
  const failed = handoversOf(view(run(row(handover()), row(childNote('Res timed out after 60000 ms')))).items)[0];
  assert.equal(failed?.status, 'failed');
  // Stop pressed while the child was open: its end reads "stopped", note or not.
  const stopping = run(row(handover()), status(CHILD, 'running'), childDelta('ECHO: half'), { type: 'stopRequested' });
  assert.deepEqual(stopping.stoppedChildKeys, [childKey]);
  assert.equal(handoversOf(view(stopping).items)[0]?.status, 'running', 'still running until the child goes idle');
  const idle = chatReducer(stopping, status(CHILD, 'idle'));
  assert.equal(handoversOf(view(idle).items)[0]?.status, 'stopped');
  assert.equal(handoversOf(view(chatReducer(idle, row(childNote('Res failed: aborted')))).items)[0]?.status, 'stopped');
  // After a reload (no Stop seen by this page): the note says it.
  assert.equal(handoversOf(view(run(row(handover()), row(childNote('Res was stopped')))).items)[0]?.status, 'stopped');
  // What had streamed is kept as the child's reply before the note: the note still decides, after a reload too.
  const partial = run(row(handover()), row(childReply()), row(childNote("Res's work on “Research the topic” ended: stopped by the user")));
  assert.equal(handoversOf(view(partial).items)[0]?.status, 'stopped');
  assert.equal(handoversOf(view(run(row(handover()), row(childReply()), row(childNote('Res timed out')))).items)[0]?.status, 'failed');
  // A child done before the Stop stays done.
  const done = run(row(handover()), row(childReply()), { type: 'stopRequested' });
  assert.deepEqual(done.stoppedChildKeys, []);
  assert.equal(handoversOf(view(done).items)[0]?.status, 'done');
});

void test(`${S}: a refused spawn stays a notice in the lead's flow (no hand-over, nothing nested)`, () => {
  const v = view(run(row(userMsg()), row(refused())));
  assert.deepEqual(shape(v.items), ['u1', 'spawn-refused-call-7']);
  assert.deepEqual(handoversOf(v.items), []);
});

void test(`${S}: any arrival order (entries before the hand-over, deltas before entries, replays) gives the same nesting and status`, () => {
  const entries = [userMsg(), handover(), leadReply(), childReply(), announce()];
  const actions: ChatAction[] = [...entries.map((e, i) => ({ type: 'row', frame: { id: 100 + i, entry: e } }) as ChatAction), childDelta('ECHO: f'), childDelta('ECHO: findings')];
  fc.assert(
    fc.property(fc.shuffledSubarray(actions, { minLength: actions.length, maxLength: actions.length }), fc.array(fc.nat(actions.length - 1), { maxLength: 4 }), (order, dupes) => {
      const s = run(...order, ...dupes.map((i) => actions[i] as ChatAction));
      const v = view(s);
      // Rows are shown in row-id order whatever order they came in; the child's reply always inside its hand-over.
      assert.deepEqual(shape(v.items), ['u1', [`spawn-${childKey}`, `run-${childRun}`], 'run-lead-1', `run-${announceRun}`]);
      const [h] = handoversOf(v.items);
      assert.equal(h?.status, 'done');
      assert.equal(h?.costUsd, 0.0012);
      assert.equal(h?.live, null, 'a delta after the committed reply does not bring the live text back');
      assert.deepEqual(v.live, []);
    }),
  );
});
