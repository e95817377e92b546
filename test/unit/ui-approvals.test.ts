// Issue 18, Approvals, Settings and the access page (brief D): the pure
// logic behind them. The countdown text, what a card may do, the team
// filter, the expired-row reducer and the history fold over the event log;
// the settings page's URL check (held to the server's own rule and message,
// shared/settings/settings-file.ts) and the access page's token rule (held
// to the gate's, supervisor/http/plugins/access-gate.ts). No browser.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolApproval } from '../../shared/broker/types.ts';
import type { EventRow } from '../../shared/events/types.ts';
import { SETTINGS_ERRORS, validateSettingsPatch } from '../../shared/settings/settings-file.ts';
import { QUERY_PARAM, TOKEN_RE } from '../../supervisor/http/plugins/access-gate.ts';
import { approvalsBadge, errorsBadge } from '../../ui/src/app/badges.ts';
import {
  cardState, countdownText, foldHistory, formatCountdown, newlyExpired, prettyArgs, riskOf, teamApprovals, type Settled,
} from '../../ui/src/features/approvals/logic.ts';
import { accessUrl, ACCESS_PARAM, checkToken, withoutToken } from '../../ui/src/pages/access/access-url.ts';
import { BAD_GATEWAY_URL, checkGatewayUrl, checkLevel, healthSummary } from '../../ui/src/pages/settings/logic.ts';
import { fc } from '../helpers/fc.ts';

const S = 'Dashboard (issue 18, Approvals)';

function approval(over: Partial<ToolApproval> = {}): ToolApproval {
  return {
    id: 'a1', toolName: 'delete_path', agentId: 'agent-1', argsSummary: '{"path":"x.txt"}', reason: null, status: 'pending',
    taskId: null, tenantId: null, createdAt: 1_000, expiresAt: 61_000, resolvedAt: null, ...over,
  };
}

function event(kind: 'approval_requested' | 'approval_resolved', ts: number, data: Record<string, unknown>, agentId: string | null = 'agent-1'): Pick<EventRow, 'kind' | 'ts' | 'agentId' | 'data'> {
  return { kind, ts, agentId, data: JSON.stringify(data) };
}

void test(`${S}: the countdown reads m:ss under an hour, h:mm:ss above, rounds up, and says expired once passed`, () => {
  assert.equal(formatCountdown(600_000), '10:00');
  assert.equal(formatCountdown(59_001), '1:00');
  assert.equal(formatCountdown(59_000), '0:59');
  assert.equal(formatCountdown(1), '0:01');
  assert.equal(formatCountdown(3_723_000), '1:02:03');
  assert.equal(formatCountdown(-5), '0:00');
  assert.equal(countdownText(61_000, 1_000), 'expires in 1:00');
  assert.equal(countdownText(61_000, 61_000), 'expired');
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 10 * 3_600_000 }), (ms) => {
      const text = formatCountdown(ms);
      assert.match(text, /^(\d+:[0-5]\d:[0-5]\d|[0-5]?\d:[0-5]\d)$/);
      const secs = text.split(':').map(Number).reduce((acc, n) => acc * 60 + n, 0);
      assert.equal(secs, Math.ceil(ms / 1000), 'the text is the remaining whole seconds, rounded up');
    }),
  );
});

void test(`${S}: a card is resolvable only while pending and before its expiry; a resolved one shows its decision`, () => {
  assert.deepEqual(cardState(approval(), 60_999), { kind: 'pending' });
  assert.deepEqual(cardState(approval(), 61_000), { kind: 'expired' });
  assert.deepEqual(cardState(approval({ status: 'deny' }), 0), { kind: 'resolved', decision: 'deny' });
  assert.deepEqual(cardState(approval({ status: 'allow_always' }), 99_999), { kind: 'resolved', decision: 'allow_always' });
});

void test(`${S}: risk comes from the tool list; a delegation key says so; arguments are pretty-printed when JSON`, () => {
  const tools = [{ name: 'delete_path', risk: 'destructive' as const }];
  assert.equal(riskOf('delete_path', tools), 'destructive');
  assert.equal(riskOf('delegate:research', tools), 'delegation');
  assert.equal(riskOf('other', tools), 'unknown');
  assert.equal(riskOf('delete_path', undefined), 'unknown');
  assert.equal(prettyArgs('{"path":"x"}'), '{\n  "path": "x"\n}');
  assert.equal(prettyArgs('{"path":"x"…'), '{"path":"x"…');
  assert.equal(prettyArgs(null), '(no arguments)');
});

void test(`${S}: a row that left the pending list after its expiry is settled as expired; one resolved here or not yet expired is not`, () => {
  const a = approval({ id: 'a', expiresAt: 10 });
  const b = approval({ id: 'b', expiresAt: 10 });
  const c = approval({ id: 'c', expiresAt: 1_000 });
  const settled = new Map<string, Settled>([['b', { approval: b, outcome: 'deny', at: 5 }]]);
  const out = newlyExpired([a, b, c], [], settled, 20);
  assert.deepEqual(out.map((s) => [s.approval.id, s.outcome]), [['a', 'expired']]);
  assert.deepEqual(newlyExpired([a], [a], new Map(), 20), [], 'still listed: not settled');
});

void test(`${S}: the team tray shows the approvals of the team's members and its leader only`, () => {
  const rows = [approval({ id: '1', agentId: 'm1' }), approval({ id: '2', agentId: 'other' }), approval({ id: '3', agentId: 'lead' }), approval({ id: '4', agentId: null })];
  const assignments = [{ agentId: 'm1', teamId: 'T' }, { agentId: 'other', teamId: 'U' }];
  assert.deepEqual(teamApprovals(rows, 'T', assignments, 'lead').map((a) => a.id), ['1', '3']);
  assert.deepEqual(teamApprovals(rows, 'T', assignments, null).map((a) => a.id), ['1']);
});

void test(`${S}: the history folds requested and resolved events by approval id, newest request first`, () => {
  const events = [
    event('approval_resolved', 30, { approvalId: 'x', toolName: 'delete_path', status: 'deny' }),
    event('approval_requested', 20, { approvalId: 'y', toolName: 'delete_path', status: 'pending' }, 'agent-2'),
    event('approval_requested', 10, { approvalId: 'x', toolName: 'delete_path', status: 'pending' }),
    event('approval_requested', 40, { approvalId: 'z', toolName: 'delegate:plan', status: 'pending' }),
    { kind: 'error', ts: 50, agentId: null, data: '{}' } as const,
    { kind: 'approval_requested', ts: 60, agentId: null, data: 'not json' } as const,
  ];
  const rows = foldHistory(events, new Set(['z']));
  assert.deepEqual(
    rows.map((r) => [r.approvalId, r.toolName, r.agentId, r.requestedAt, r.resolvedAt, r.outcome]),
    [
      ['z', 'delegate:plan', 'agent-1', 40, null, 'pending'],
      ['y', 'delete_path', 'agent-2', 20, null, 'expired'],
      ['x', 'delete_path', 'agent-1', 10, 30, 'deny'],
    ],
  );
});

void test(`${S}: the nav's approvals and errors badges`, () => {
  assert.equal(approvalsBadge(0), undefined);
  assert.deepEqual(approvalsBadge(2), { text: '2', tone: 'warn', label: '2 pending approvals' });
  assert.equal(errorsBadge({ errors: [], harnessBugCount: 0 }), undefined);
  const one = { seq: 1, ts: 1, taskId: null, agentId: null, runtime: null, errorClass: 'X', harnessBug: false, message: '' };
  assert.equal(errorsBadge({ errors: [one], harnessBugCount: 0 })?.label, '1 error in the last 24 hours');
  assert.equal(errorsBadge({ errors: Array.from({ length: 500 }, () => one), harnessBugCount: 0 })?.text, '500+');
});

void test('Dashboard (issue 18, Settings): the gateway URL check is the server\'s own rule, with its message', () => {
  assert.equal(BAD_GATEWAY_URL, SETTINGS_ERRORS.badUrl);
  for (const ok of ['', '  ', 'ws://localhost:18789', 'wss://h.example/ws', ' ws://127.0.0.1:1 ']) assert.equal(checkGatewayUrl(ok), null, ok);
  for (const bad of ['http://h', 'localhost:18789', 'ws:', 'wss//h', 'ftp://x']) assert.equal(checkGatewayUrl(bad), BAD_GATEWAY_URL, bad);
  const urlish = fc.oneof(fc.string(), fc.webUrl(), fc.webUrl().map((u) => u.replace(/^https?/, 'ws')), fc.constantFrom('ws://', 'wss://x', ' ws://a b', 'WS://H'));
  fc.assert(
    fc.property(urlish, (s) => {
      const server = validateSettingsPatch({ gatewayUrl: s });
      assert.equal(checkGatewayUrl(s), server.ok ? null : server.error, `for ${JSON.stringify(s)}`);
    }),
  );
});

void test('Dashboard (issue 18, Settings): each health check reads ok, degraded or fatal; the summary names the failures', () => {
  const report = { fatal: ['databaseIntegrity'], degraded: ['gatewayReachable'] };
  assert.equal(checkLevel({ id: 'svcHomeWritable', ok: true }, report), 'ok');
  assert.equal(checkLevel({ id: 'gatewayReachable', ok: false }, report), 'degraded');
  assert.equal(checkLevel({ id: 'databaseIntegrity', ok: false }, report), 'fatal');
  assert.equal(healthSummary(report).level, 'fatal');
  assert.deepEqual(healthSummary({ fatal: [], degraded: ['gatewayReachable'] }), { level: 'degraded', text: 'Working with problems: gatewayReachable.' });
  assert.deepEqual(healthSummary({ fatal: [], degraded: [] }), { level: 'ok', text: 'All checks pass.' });
});

void test('Dashboard (issue 18, journey 8): the access page sends the token as the gate\'s parameter and accepts what the gate accepts', () => {
  assert.equal(ACCESS_PARAM, QUERY_PARAM);
  const at = (pathname: string, search: string) => ({ origin: 'http://127.0.0.1:4000', pathname, search });
  assert.equal(accessUrl(at('/approvals', '?tab=history'), 'abc'), 'http://127.0.0.1:4000/approvals?tab=history&access_token=abc');
  assert.equal(accessUrl(at('/', '?access_token=old'), 'new'), 'http://127.0.0.1:4000/?access_token=new');
  assert.equal(withoutToken(at('/approvals', '?tab=history&access_token=bad')), 'http://127.0.0.1:4000/approvals?tab=history');
  assert.equal(withoutToken(at('/', '?access_token=bad')), 'http://127.0.0.1:4000/');
  // A path that reads as another host when taken as a reference stays a path of this origin.
  for (const path of ['//evil.example/teams', '///evil.example', '/\\evil.example/x']) {
    assert.equal(new URL(accessUrl(at(path, ''), 'abc')).host, '127.0.0.1:4000', path);
    assert.equal(new URL(withoutToken(at(path, '?access_token=bad'))).host, '127.0.0.1:4000', path);
  }
  assert.equal(checkToken(''), 'Paste the access token first.');
  fc.assert(
    fc.property(fc.string({ minLength: 1, maxLength: 40 }), (s) => {
      assert.equal(checkToken(s) === null, TOKEN_RE.test(s), `for ${JSON.stringify(s)}`);
      assert.equal(new URL(accessUrl(at('/', ''), s)).searchParams.get(QUERY_PARAM), s, 'the server reads back exactly the token');
    }),
  );
});
