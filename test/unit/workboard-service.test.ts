// Issue 23 item 5, the Workboard service's cache in process, against a
// scripted stand-in for svc's gateway connection (the real gateway's side is
// test/gateway/workboard.test.ts): what it reads when, that a
// reconnect reads again even when no event says so, that a gateway without
// the plugin is asked again only after DISABLED_RECHECK_MS, and that a
// failing read warns once, not on every poll.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEventHandlers } from '../../shared/gateway/event-handlers.ts';
import type { ConnectionStatus } from '../../shared/gateway/connection.ts';
import { GatewayError } from '../../shared/gateway/protocol.ts';
import { createLogger } from '../../shared/log.ts';
import { createWorkboardService, DISABLED_RECHECK_MS, MAX_AGE_MS, WORKBOARD_EVENT } from '../../supervisor/services/workboard-service.ts';

const STATUSES = ['todo', 'ready', 'done'];

function rig() {
  const events = createEventHandlers();
  const statusHandlers: Array<(s: ConnectionStatus) => void> = [];
  const state: ConnectionStatus = { state: 'idle', url: null, connectedAt: null, lastError: null, failures: 0, serverVersion: null };
  let clock = 1_000_000;
  let cards: Array<Record<string, unknown>> = [];
  let answer: 'ok' | 'unknown' | 'broken' = 'ok';
  const calls: string[] = [];
  const lines: string[] = [];
  const connection = {
    on: events.on,
    onStatus: (h: (s: ConnectionStatus) => void) => void statusHandlers.push(h),
    status: () => ({ ...state }),
    request: (method: string): Promise<unknown> => {
      calls.push(method);
      if (answer === 'unknown') return Promise.reject(new GatewayError({ code: 'INVALID_REQUEST', message: `unknown method: ${method}` }));
      if (answer === 'broken') return Promise.reject(new GatewayError({ code: 'workboard_error', message: 'store is locked' }));
      return Promise.resolve({ cards, boards: [], statuses: STATUSES });
    },
  };
  const logger = createLogger({ level: 'info' }, { write: (s: string) => void lines.push(s) });
  const service = createWorkboardService({
    connection,
    domain: { agents: { list: () => [] }, teams: { list: () => ({ teams: [], assignments: [] }) } },
    logger,
    now: () => clock,
  });
  const setState = (s: ConnectionStatus['state']) => {
    state.state = s;
    for (const h of statusHandlers) h({ ...state });
  };
  return {
    service,
    calls,
    lines,
    setState,
    setCards: (c: Array<Record<string, unknown>>) => (cards = c),
    setAnswer: (a: typeof answer) => (answer = a),
    tick: (ms: number) => (clock += ms),
    emit: () => events.emit({ type: 'event', event: WORKBOARD_EVENT, payload: { epoch: 'e', revision: 1 } }),
  };
}

const titles = async (r: ReturnType<typeof rig>) => (await r.service.view()).cards.map((c) => c.title);

void test('Delegation (issue 23, item 5): the Workboard cache reads on connect, serves from cache, reads again on plugin.workboard.changed and on every reconnect', async () => {
  const r = rig();
  assert.deepEqual(await r.service.view(), { enabled: false, cards: [], statuses: [] }, 'not connected: off, nothing asked');
  assert.deepEqual(r.calls, []);
  r.setCards([{ id: 'c1', title: 'one', status: 'todo' }]);
  r.setState('connected');
  assert.deepEqual(await titles(r), ['one']);
  assert.equal(r.calls.length, 1, 'the read on connect serves the first GET');
  await titles(r);
  assert.equal(r.calls.length, 1, 'a poll is served from the cache');

  r.setCards([{ id: 'c1', title: 'one, edited', status: 'todo' }]);
  r.emit();
  assert.deepEqual(await titles(r), ['one, edited'], 'read again when the gateway says the board changed');

  // A change while svc was away sends no event: the reconnect reads anyway.
  r.setState('backoff');
  assert.equal((await r.service.view()).enabled, false);
  r.setCards([{ id: 'c1', title: 'changed while away', status: 'done' }]);
  r.setState('connected');
  assert.deepEqual(await titles(r), ['changed while away']);
  const n = r.calls.length;
  r.tick(MAX_AGE_MS + 1);
  await titles(r);
  assert.equal(r.calls.length, n + 1, 'an old snapshot is read again even without an event');
});

void test('Delegation (issue 23, item 5): no plugin is asked again only every DISABLED_RECHECK_MS; a failing read warns once, not per poll; plugin off logs nothing above debug', async () => {
  const r = rig();
  r.setAnswer('unknown');
  r.setState('connected');
  assert.equal((await r.service.view()).enabled, false);
  const n = r.calls.length;
  for (let i = 0; i < 5; i++) await r.service.view();
  assert.equal(r.calls.length, n, 'polls within the recheck window do not ask the gateway');
  r.setAnswer('ok');
  r.tick(DISABLED_RECHECK_MS + 1);
  assert.equal((await r.service.view()).enabled, true, 'the plugin turned on is seen at the next recheck');
  assert.deepEqual(r.lines, [], 'nothing logged at info or above');

  r.setAnswer('broken');
  for (let i = 0; i < 3; i++) {
    r.tick(MAX_AGE_MS + 1);
    assert.deepEqual(await r.service.view(), { enabled: false, cards: [], statuses: [] });
  }
  assert.equal(r.lines.length, 1, `one warning for one problem: ${r.lines.join('')}`);
  assert.match(r.lines[0] ?? '', /workboard.cards.list failed: store is locked/);
});
