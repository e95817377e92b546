// Shared set-up of the team chat route tests: the real app in-process (the
// team-chat host in this thread), the gateway pointed at a loopback port
// where nothing listens (so a delivery ends as a `system`/`meta` entry, which
// proves the path up to the send), and a team with a lead and two members.
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { freePort } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';
import type { TranscriptEntry } from '../../shared/team-chat/schemas.ts';

/** A transcript entry: svc's one schema of it. */
export type Entry = TranscriptEntry;

export interface Row {
  id: number;
  sessionKey: string;
  entry: Entry;
}

export interface ChatFixture extends TestApp {
  teamId: string;
  /** The team's leader, and two members (all on the roster). */
  lead: string;
  ann: string;
  bob: string;
  key: (agentId: string) => string;
  rows: () => Row[];
  eventCount: () => number;
  post: (body: unknown, teamId?: string) => Promise<{ statusCode: number; json: () => unknown; body: string }>;
  /** Waits for a `system`/`meta` entry under `sessionKey` written after row `afterId`. */
  metaAfter: (sessionKey: string, afterId: number) => Promise<Row>;
}

/** Delivery attempts against a refused port: the host's retry wait is bounded by its design (10 s), well within this. */
export const DELIVERY_WAIT_MS = 60_000;

export async function createTeam(app: FastifyInstance, body: Record<string, unknown> = {}): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/teams', payload: { name: 'Crew', icon: '🚀', color: '#00ff00', ...body } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ team: { id: string } }>().team.id;
}

export async function assign(app: FastifyInstance, teamId: string, agentId: string, agentName: string): Promise<void> {
  const res = await app.inject({ method: 'POST', url: `/api/teams/${teamId}/agents`, payload: { agentId, agentName } });
  assert.equal(res.statusCode, 200, res.body);
}

/**
 * `reconnectWaitMs`: how long a delivery waits for the gateway before its one
 * retry. No gateway listens, so by default a moment rather than svc's ten
 * seconds; a test that needs a run to stay `running` a while asks for more.
 */
export async function chatFixture(t: TestContext, opts: { startWorkers?: boolean; reconnectWaitMs?: number } = {}): Promise<ChatFixture> {
  const built = await buildTestApp(t, { startWorkers: opts.startWorkers, env: { SVC_TEAM_CHAT_RECONNECT_WAIT_MS: String(opts.reconnectWaitMs ?? 50) } });
  const { app, runtime } = built;
  const port = await freePort();
  const saved = await app.inject({ method: 'POST', url: '/api/settings', payload: { gatewayUrl: `ws://127.0.0.1:${port}` } });
  assert.equal(saved.statusCode, 200, saved.body);

  const teamId = await createTeam(app);
  await assign(app, teamId, 'lead-1', 'Lena');
  await assign(app, teamId, 'ann-1', 'Ann');
  await assign(app, teamId, 'bob-1', 'Bob Stone');
  const patched = await app.inject({ method: 'PATCH', url: `/api/teams/${teamId}`, payload: { leaderAgentId: 'lead-1' } });
  assert.equal(patched.statusCode, 200, patched.body);

  const db = runtime.deps.db;
  const rows = () =>
    (db.prepare('SELECT id, session_key AS sessionKey, entry FROM chat_messages ORDER BY id').all() as Array<{ id: number; sessionKey: string; entry: string }>).map(
      (r) => ({ id: r.id, sessionKey: r.sessionKey, entry: JSON.parse(r.entry) as Entry }),
    );
  const key = (agentId: string) => `agent:${agentId}:team:${teamId}`;
  return {
    ...built,
    teamId,
    lead: 'lead-1',
    ann: 'ann-1',
    bob: 'bob-1',
    key,
    rows,
    eventCount: () => db.prepare('SELECT COUNT(*) FROM events').pluck().get() as number,
    post: (body, id = teamId) =>
      app.inject({ method: 'POST', url: `/api/teams/${encodeURIComponent(id)}/chat`, ...(body === undefined ? {} : { payload: body as Record<string, unknown> }) }),
    metaAfter: (sessionKey, afterId) =>
      waitFor(() => rows().find((r) => r.id > afterId && r.sessionKey === sessionKey && r.entry.kind === 'meta' && r.entry.role === 'system'), {
        what: `a system/meta entry under ${sessionKey}`,
        timeoutMs: DELIVERY_WAIT_MS,
      }),
  };
}
