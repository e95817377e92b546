// The team-chat host over a real SQLite file, with a scripted gateway
// connection in place of the gateway: chat.send starts a run the test ends
// (finish, an error, a call's usage), chat.abort answers `aborted`,
// chat.history serves the calls the test reported. For the host's own rules
// (budget halts, the reload race); what the real gateway does is proved in
// test/gateway/team-chat/.
import type { TestContext } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBudgetStore } from '../../shared/budgets/index.ts';
import { openDatabase, type Db } from '../../shared/db/open.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import { createTx } from '../../shared/db/tx.ts';
import { createDomain, type Domain } from '../../shared/domain.ts';
import { createEventLog } from '../../shared/events/event-log.ts';
import type { GatewaySession } from '../../shared/gateway/client.ts';
import type { ConnectionStatus, GatewayConnection } from '../../shared/gateway/connection.ts';
import { createEventHandlers } from '../../shared/gateway/event-handlers.ts';
import { createLogger } from '../../shared/log.ts';
import { createExecutions, type Execution } from '../../shared/team-chat/runs/executions.ts';
import { createTeamChatHost, type TeamChatHost } from '../../shared/team-chat/host.ts';

/** A gateway that answers chat.send with a run the test finishes (its text kept), chat.abort with `aborted`, chat.history from `history`. */
export function scriptedGateway() {
  const handlers = createEventHandlers();
  const statusHandlers: Array<(s: ConnectionStatus) => void> = [];
  const sends: Array<{ sessionKey: string; runId: string; message: string }> = [];
  const aborts: string[] = [];
  const history: unknown[] = [];
  let seq = 0;
  const ended = new Set<string>();
  const chat = (payload: Record<string, unknown>) => {
    if (payload.state !== 'delta') ended.add(payload.runId as string);
    handlers.emit({ type: 'event', event: 'chat', payload });
  };
  const request = (method: string, params?: unknown): Promise<unknown> => {
    const p = (params ?? {}) as { sessionKey?: string; runId?: string; message?: string };
    if (method === 'chat.send') {
      const runId = `run-${++seq}`;
      sends.push({ sessionKey: p.sessionKey as string, runId, message: p.message as string });
      return Promise.resolve({ runId });
    }
    if (method === 'chat.abort') {
      const run = sends.find((s) => s.runId === p.runId) ?? sends.findLast((s) => s.sessionKey === p.sessionKey);
      if (run) {
        aborts.push(run.runId);
        setImmediate(() => chat({ runId: run.runId, sessionKey: run.sessionKey, state: 'aborted' }));
      }
      return Promise.resolve({ ok: true });
    }
    if (method === 'chat.history') return Promise.resolve({ messages: history });
    return Promise.resolve({});
  };
  const session: GatewaySession = {
    hello: {},
    closed: false,
    request,
    on: (event, h) => handlers.on(event, h),
    onClose: () => undefined,
    close: () => Promise.resolve(),
  };
  const connected: ConnectionStatus = { state: 'connected', url: 'ws://stub', connectedAt: 1, lastError: null, failures: 0, serverVersion: 'stub' };
  const connection: GatewayConnection = {
    start: () => setImmediate(() => statusHandlers.forEach((h) => h(connected))),
    stop: () => Promise.resolve(),
    reconfigure: () => undefined,
    nudge: () => undefined,
    status: () => connected,
    settled: () => Promise.resolve(connected),
    request,
    session: () => session,
    on: (event, h) => handlers.on(event, h),
    onStatus: (h) => void statusHandlers.push(h),
  };
  return {
    connection,
    sends,
    aborts,
    /** Ends the runs still going (their send would otherwise hold its timeout timer past the test). */
    endAll() {
      for (const s of sends) if (!ended.has(s.runId)) chat({ runId: s.runId, sessionKey: s.sessionKey, state: 'aborted' });
    },
    /** One model call of a running run ended: in the history, and as a `session.message` event (what the gateway sends subscribers). */
    callEnded(runId: string, c: { provider: string; input: number; output: number; responseId: string }) {
      const run = sends.find((s) => s.runId === runId);
      if (!run) throw new Error(`no run ${runId}`);
      const message = { role: 'assistant', provider: c.provider, model: 'svc-e2e-llm', usage: { input: c.input, output: c.output }, responseId: c.responseId, __openclaw: { runId } };
      // A repeated event is one message of the transcript.
      if (!history.some((h) => (h as { responseId?: string }).responseId === c.responseId)) history.push(message);
      handlers.emit({ type: 'event', event: 'session.message', payload: { sessionKey: run.sessionKey, agentId: 'x', message } });
    },
    /** The run ends with the gateway's error, after `streamed` when given. */
    error(runId: string, errorMessage: string, streamed = '') {
      const run = sends.find((s) => s.runId === runId);
      if (!run) throw new Error(`no run ${runId}`);
      if (streamed !== '') chat({ runId, sessionKey: run.sessionKey, state: 'delta', deltaText: streamed });
      chat({ runId, sessionKey: run.sessionKey, state: 'error', errorMessage });
    },
    /** The run ends with `text`; its model calls (provider, tokens) go into the history first. */
    finish(runId: string, text: string, calls: Array<{ provider: string; input: number; output: number }> = []) {
      const run = sends.find((s) => s.runId === runId);
      if (!run) throw new Error(`no run ${runId}`);
      for (const c of calls) history.push({ role: 'assistant', provider: c.provider, model: 'svc-e2e-llm', usage: { input: c.input, output: c.output }, __openclaw: { runId } });
      chat({ runId, sessionKey: run.sessionKey, state: 'delta', deltaText: text });
      chat({ runId, sessionKey: run.sessionKey, state: 'final', message: { role: 'assistant', content: [{ type: 'text', text }] } });
    },
  };
}

export interface Fixture {
  clock: { t: number };
  db: Db;
  domain: Domain;
  gw: ReturnType<typeof scriptedGateway>;
  host: TeamChatHost;
  teamId: string;
  budgets: ReturnType<typeof createBudgetStore>;
  notes(sessionKey: string): string[];
  entryIds(sessionKey: string): string[];
  executions(): Execution[];
  errorEvents(): Array<Record<string, unknown>>;
}

export function fixture(t: TestContext): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tc-budget-'));
  const db = openDatabase(join(dir, 'svc.db'));
  const logger = createLogger({ level: 'warn' }, { write: () => undefined });
  const tx = createTx(db, (err) => logger.error({ err }, 'hook'));
  const clock = { t: 1_800_000_000_000 };
  const now = () => ++clock.t;
  const domain = createDomain({ db, tx, settingsTable: createSettingsTable(db, now), eventLog: createEventLog({ db, tx, logger, now }), logger, now });
  const gw = scriptedGateway();
  const host = createTeamChatHost({
    db,
    logger,
    identity: () => {
      throw new Error('the scripted gateway needs no identity');
    },
    version: 'test',
    turnBound: 8,
    idleMs: 30 * 60_000,
    runTimeoutMs: 60_000,
    emit: () => undefined,
    now,
    connect: () => gw.connection,
    reconnectWaitMs: 5,
  });
  host.configure({ gateway: { url: 'ws://stub', token: 't' }, secrets: [] });
  t.after(async () => {
    gw.endAll();
    await host.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const teamId = domain.teams.create({ name: 'Blue', icon: 'x', color: 'blue', leaderAgentId: 'writer' }).id;
  domain.agents.create({ id: 'writer', name: 'Writer', teamId });
  domain.agents.create({ id: 'editor', name: 'Editor', teamId });
  const entries = (key: string) =>
    (db.prepare('SELECT entry FROM chat_messages WHERE session_key = ? ORDER BY id').pluck().all(key) as string[]).map((e) => JSON.parse(e) as { entryId: string; kind: string; text: string });
  return {
    clock,
    db,
    domain,
    gw,
    host,
    teamId,
    budgets: createBudgetStore({ db, tx, now, warnPct: 80, hardCapUsdCents: null }),
    notes: (key) => entries(key).filter((e) => e.kind === 'meta').map((e) => e.text),
    entryIds: (key) => entries(key).map((e) => e.entryId),
    executions: () => (db.prepare('SELECT id FROM executions ORDER BY started_at, id').pluck().all() as string[]).map((id) => createExecutions(db).get(id) as Execution),
    errorEvents: () => (db.prepare(`SELECT data FROM events WHERE kind = 'error' ORDER BY seq`).pluck().all() as string[]).map((d) => JSON.parse(d) as Record<string, unknown>),
  };
}
