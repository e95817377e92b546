// Issue 18, Team chat page (brief C): the chat stream's frame parser, the
// reducer that turns frames into what the page shows (deltas REPLACE the live
// bubble; it goes on commit and on idle/error; a run with no answer says so;
// optimistic sends deduplicated by entryId), the composer's mention list, the
// agent read back out of a session key, and the "load earlier" merge over
// per-key history pages. Plain functions: no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RosterAgent } from '../../shared/team-chat/routing/answerer.ts';
import type { TranscriptEntry } from '../../shared/team-chat/schemas.ts';
import {
  addPage, agentIdOfTeamSessionKey, anyoneRunning, applyMention, chatReducer, hasEarlier, hasOlder, initialChatState, keysToFetch,
  leadingMention, mentionOptions, mentionQuery, parseDeltaFrame, parseRowFrame, parseStatusFrame, RENDER_LIMIT, reveal, startPaging,
  teamFallbackSessionKey, teamSessionKey, transcriptItems, type ChatAction, type ChatState, type Paging,
} from '../../ui/src/features/chat/index.ts';
import { fc } from '../helpers/fc.ts';

const S = 'Dashboard (issue 18, Team chat)';
const TEAM = 'team-1';
const ADA = 'ada';
const BOB = 'bob';
const adaKey = teamSessionKey(ADA, TEAM);
const bobKey = teamSessionKey(BOB, TEAM);

let seq = 1000;
function entry(over: Partial<TranscriptEntry> & Pick<TranscriptEntry, 'entryId'>): TranscriptEntry {
  seq += 1;
  return {
    role: 'assistant', kind: 'message', text: 'hi', sessionKey: adaKey, runId: null, source: 'team-chat', timestampMs: seq,
    sequenceKey: seq, confirmed: true, fingerprint: '', teamId: TEAM, agentId: ADA, ...over,
  };
}
const reply = (runId: string, text: string, agentId = ADA) =>
  entry({ entryId: `run-${runId}`, runId, text, agentId, sessionKey: teamSessionKey(agentId, TEAM) });

let rowId = 0;
const row = (e: TranscriptEntry): ChatAction => ({ type: 'row', frame: { id: ++rowId, entry: e } });
const delta = (text: string, runId = 'r1', sessionKey = adaKey): ChatAction => ({ type: 'delta', frame: { sessionKey, runId, text } });
const status = (agentId: string, s: 'running' | 'idle' | 'error'): ChatAction => ({ type: 'status', frame: { agentId, status: s } });
const run = (...actions: ChatAction[]): ChatState => actions.reduce(chatReducer, initialChatState(TEAM));

// --- frame parser ---------------------------------------------------------

void test(`${S}: an unnamed frame is a committed row: its id line is the cursor, its data the entry`, () => {
  const e = reply('r9', 'done');
  assert.deepEqual(parseRowFrame(JSON.stringify(e), '42'), { id: 42, entry: e });
  assert.equal(parseRowFrame(JSON.stringify(e), ''), null, 'a row without an id cannot move the cursor');
  assert.equal(parseRowFrame(JSON.stringify(e), 'abc'), null);
  assert.equal(parseRowFrame('{not json', '1'), null);
  assert.equal(parseRowFrame(JSON.stringify({ ...e, entryId: undefined }), '1'), null);
  assert.equal(parseRowFrame(JSON.stringify({ ...e, role: 'robot' }), '1'), null);
  // Optional fields default instead of refusing a row the page can still show.
  const loose = parseRowFrame(JSON.stringify({ entryId: 'x', role: 'system', kind: 'meta', text: 'note', sessionKey: 'team:t' }), '3');
  assert.equal(loose?.entry.agentId, null);
  assert.equal(loose?.entry.runId, null);
});

void test(`${S}: delta and status frames are read with their spec shapes; anything else is skipped`, () => {
  assert.deepEqual(parseDeltaFrame('{"sessionKey":"k","runId":"r","text":"ECHO: a"}'), { sessionKey: 'k', runId: 'r', text: 'ECHO: a' });
  assert.deepEqual(parseDeltaFrame('{"sessionKey":"k","text":"x"}'), { sessionKey: 'k', runId: '', text: 'x' });
  assert.equal(parseDeltaFrame('{"sessionKey":"k"}'), null);
  assert.equal(parseDeltaFrame('[]'), null);
  assert.deepEqual(parseStatusFrame('{"agentId":"a","status":"running"}'), { agentId: 'a', status: 'running' });
  assert.equal(parseStatusFrame('{"agentId":"a","status":"busy"}'), null);
  assert.equal(parseStatusFrame('nope'), null);
});

// --- the delta reducer ----------------------------------------------------

void test(`${S}: a delta REPLACES the live bubble's text (the frame holds the whole text so far), never appends`, () => {
  const s = run(status(ADA, 'running'), delta('ECHO:'), delta('ECHO: hello'), delta('ECHO: hello there'));
  assert.deepEqual(Object.values(s.live).map((b) => [b.agentId, b.text]), [[ADA, 'ECHO: hello there']]);
  // Even a shorter text replaces: the server's text is the truth.
  assert.equal(chatReducer(s, delta('ECHO'))['live'][adaKey]?.text, 'ECHO');
  // Two agents stream side by side.
  const two = chatReducer(s, delta('Bob says', 'r2', bobKey));
  assert.deepEqual(Object.values(two.live).map((b) => b.text).sort(), ['Bob says', 'ECHO: hello there']);
});

void test(`${S}: the live bubble goes when the committed row of its run arrives, and a late delta of that run does not bring it back`, () => {
  let s = run(status(ADA, 'running'), delta('ECHO: a', ''), delta('ECHO: a b', 'r1'));
  s = chatReducer(s, row(reply('r1', 'ECHO: a b c')));
  assert.deepEqual(s.live, {});
  assert.deepEqual(transcriptItems(s).map((i) => (i.type === 'entry' ? i.entry.text : i.type)), ['ECHO: a b c']);
  assert.deepEqual(chatReducer(s, delta('ECHO: a b', 'r1')).live, {});
  // A bubble of another run of the same agent stays.
  const other = chatReducer(run(delta('next', 'r2')), row(reply('r1', 'old')));
  assert.equal(other.live[adaKey]?.text, 'next');
});

void test(`${S}: the live bubble goes when its agent's status goes idle or error`, () => {
  const streaming = run(status(ADA, 'running'), delta('ECHO: partial'), status(BOB, 'running'), delta('B', 'r2', bobKey));
  assert.deepEqual(Object.keys(chatReducer(streaming, status(ADA, 'idle')).live), [bobKey]);
  assert.deepEqual(Object.keys(chatReducer(streaming, status(ADA, 'error')).live), [bobKey]);
  assert.equal(anyoneRunning(streaming), true);
  assert.equal(anyoneRunning(run(status(ADA, 'running'), status(ADA, 'idle'))), false);
});

void test(`${S}: a run that ends idle with no text and no reply is shown as "finished without a reply" (after a Stop: "stopped")`, () => {
  const noAnswer = run(row(entry({ entryId: 'u1', role: 'user', kind: 'user' })), status(ADA, 'running'), status(ADA, 'idle'));
  assert.deepEqual(noAnswer.notices.map((n) => [n.kind, n.agentId, n.after]), [['no-reply', ADA, rowId]]);
  assert.deepEqual(transcriptItems(noAnswer).map((i) => i.type), ['entry', 'notice']);
  const stopped = run(status(ADA, 'running'), { type: 'stopRequested' }, status(ADA, 'idle'));
  assert.deepEqual(stopped.notices.map((n) => n.kind), ['stopped']);
  // Text streamed (the reply row follows), a reply committed before idle, or an error (svc writes a meta entry): no notice.
  assert.deepEqual(run(status(ADA, 'running'), delta('ECHO: x'), status(ADA, 'idle')).notices, []);
  assert.deepEqual(run(status(ADA, 'running'), row(reply('r1', 'x')), status(ADA, 'idle')).notices, []);
  assert.deepEqual(run(status(ADA, 'running'), status(ADA, 'error')).notices, []);
  // The status snapshot of an agent that was idle all along is no run.
  assert.deepEqual(run(status(ADA, 'idle'), status(BOB, 'idle')).notices, []);
});

void test(`${S}: an optimistic send shows at once and is dropped when the committed row with its entryId arrives; a refused one keeps the server's message`, () => {
  let s = run({ type: 'send', entryId: 'e-1', text: 'hello', targetAgentId: BOB });
  assert.deepEqual(transcriptItems(s).map((i) => i.type), ['pending']);
  s = chatReducer(s, { type: 'sent', entryId: 'e-1' });
  s = chatReducer(s, row(entry({ entryId: 'e-1', role: 'user', kind: 'user', text: 'hello', agentId: BOB })));
  assert.deepEqual(transcriptItems(s).map((i) => i.type), ['entry']);
  // The same row again (a replay after a reconnect) is not shown twice.
  s = chatReducer(s, { type: 'row', frame: { id: rowId, entry: s.rows[0]?.entry as TranscriptEntry } });
  assert.equal(transcriptItems(s).length, 1);
  const failed = run({ type: 'send', entryId: 'e-2', text: 'x', targetAgentId: null }, { type: 'sendFailed', entryId: 'e-2', error: 'team is not server-orchestrated' });
  assert.deepEqual(failed.pending.map((p) => [p.state, p.error]), [['failed', 'team is not server-orchestrated']]);
  assert.equal(chatReducer(failed, { type: 'send', entryId: 'e-2', text: 'x', targetAgentId: null }).pending[0]?.state, 'sending');
  assert.deepEqual(chatReducer(failed, { type: 'discard', entryId: 'e-2' }).pending, []);
});

void test(`${S}: at most ${RENDER_LIMIT} committed rows are kept until the person pages back; then every row is kept`, () => {
  const rows = Array.from({ length: RENDER_LIMIT + 30 }, (_, i) => row(entry({ entryId: `m${i}` })));
  const s = run(...rows);
  assert.equal(s.rows.length, RENDER_LIMIT);
  assert.equal(s.rows[0]?.entry.entryId, 'm30');
  assert.equal(hasEarlier(s), true);
  assert.equal(hasEarlier(run(...rows.slice(0, 10))), false);
  const paging = startPaging([adaKey], s.rows[0]?.id ?? 0);
  const paged = chatReducer(chatReducer(s, { type: 'pagingStarted', paging }), row(entry({ entryId: 'new' })));
  assert.equal(paged.rows.length, RENDER_LIMIT + 1);
});

// --- mentions -------------------------------------------------------------

const agents = (names: string[]) => names.map((name, i) => ({ id: `a${i}`, name, gatewayId: null }) satisfies RosterAgent);

void test(`${S}: a mention counts only at the very start; the longest matching name wins; a later @name is not one`, () => {
  const roster = agents(['Ann', 'Ann Lee', 'Bob']);
  assert.equal(leadingMention('@ann lee please', roster)?.name, 'Ann Lee');
  assert.equal(leadingMention('@Ann please', roster)?.name, 'Ann');
  assert.equal(leadingMention('@Bob', roster)?.name, 'Bob');
  assert.equal(leadingMention('hello @Bob', roster), null);
  assert.equal(leadingMention(' @Bob hi', roster), null);
  assert.equal(leadingMention('@Bobby hi', roster), null);
});

void test(`${S}: the combobox: a query only inside the leading @…, names by prefix, and a pick that inserts "@Name "`, () => {
  const roster = agents(['Ada', 'Ann Lee', 'Bob']);
  assert.equal(mentionQuery('@an', 3), 'an');
  assert.equal(mentionQuery('hi @an', 6), null, 'not a leading mention');
  assert.equal(mentionQuery('@a\nb', 4), null, 'past the first line');
  assert.equal(mentionQuery('@', 0), null, 'caret before the @');
  assert.deepEqual(mentionOptions('a', roster).map((a) => a.name), ['Ada', 'Ann Lee']);
  assert.deepEqual(mentionOptions('ann ', roster).map((a) => a.name), ['Ann Lee']);
  assert.deepEqual(mentionOptions('ada ', roster), [], 'a whole name and a space: nothing left to pick');
  assert.deepEqual(applyMention('@an', 3, 'Ann Lee'), { text: '@Ann Lee ', caret: 9 });
  assert.deepEqual(applyMention('@b  please', 2, 'Bob'), { text: '@Bob please', caret: 5 });
});

// --- session keys ---------------------------------------------------------

void test(`${S}: the agent is read back out of any team session key of the team, and of no other key (property)`, () => {
  const id = fc.stringMatching(/^[^\s/?#%]{1,20}$/);
  fc.assert(
    fc.property(id, id, (agentId, teamId) => {
      assert.equal(agentIdOfTeamSessionKey(teamSessionKey(agentId, teamId), teamId), agentId);
    }),
  );
  assert.equal(agentIdOfTeamSessionKey(teamFallbackSessionKey(TEAM), TEAM), null);
  assert.equal(agentIdOfTeamSessionKey(teamSessionKey(ADA, 'other'), TEAM), null);
});

// --- load earlier: the merge over per-key history pages --------------------

interface FakeRow { id: number; key: string; entry: TranscriptEntry }

/** GET /api/chat-history over rows: the newest `limit` rows of `key` below `before`, oldest first, and the older page's cursor. */
function historyPage(rows: readonly FakeRow[], key: string, before: number, limit: number) {
  const mine = rows.filter((r) => r.key === key && r.id < before);
  const page = mine.slice(-limit);
  return { entries: page.map((r) => r.entry), nextBefore: mine.length > limit ? (page[0]?.id ?? null) : null };
}

/** What the page does on each "Load earlier" click (pages/team-chat/use-load-earlier.ts), returning the older block. */
function loadAll(rows: readonly FakeRow[], keys: string[], before: number, limit: number, onClick: (older: TranscriptEntry[]) => void): TranscriptEntry[] {
  let paging: Paging = startPaging(keys, before);
  let older: TranscriptEntry[] = [];
  for (let click = 0; hasOlder(paging) && click < 1000; click++) {
    let revealed: TranscriptEntry[] = [];
    for (let round = 0; round < 5 && revealed.length === 0; round++) {
      const fetch = keysToFetch(paging);
      for (const k of fetch) {
        const p = historyPage(rows, k, paging[k]?.before ?? 0, limit);
        paging = addPage(paging, k, p.entries, p.nextBefore);
      }
      ({ paging, revealed } = reveal(paging));
      if (fetch.length === 0) break;
    }
    older = [...revealed, ...older];
    onClick(older);
  }
  return older;
}

void test(`${S}: "load earlier" merges per-key history pages into one gapless, ordered block (property)`, () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 80 }), fc.integer({ min: 1, max: 7 }), fc.integer({ min: 0, max: 20 }), (owners, limit, heldTail) => {
      const keys = [adaKey, bobKey, teamFallbackSessionKey(TEAM)];
      const rows: FakeRow[] = owners.map((o, i) => {
        const key = keys[o] as string;
        return { id: i + 1, key, entry: entry({ entryId: `e${i + 1}`, sessionKey: key, sequenceKey: (i + 1) * 10, timestampMs: 5 }) };
      });
      // The page holds the newest `heldTail` rows from the stream; everything below is paged back.
      const before = Math.max(1, rows.length - heldTail + 1);
      const expected = rows.filter((r) => r.id < before).map((r) => r.entry.entryId);
      const older = loadAll(rows, keys, before, limit, (block) => {
        // After every click the block is the newest part of what lies below: no gap, in order.
        assert.deepEqual(block.map((e) => e.entryId), expected.slice(expected.length - block.length));
      });
      assert.deepEqual(older.map((e) => e.entryId), expected);
    }),
  );
});
