// svc's team chat as a client sees it (issue 17), for the real-gateway tests:
// JSON calls, a team with its roster and lead, the chat stream read frame by
// frame (committed rows with their ids, named frames parsed), the event feed
// with its data parsed, and a read-only look at the executions table.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openDatabase } from '../../shared/db/open.ts';
import { openSse, type SseFrame } from './http.ts';
import { waitFor } from './wait.ts';
import type { TranscriptEntry } from '../../shared/team-chat/schemas.ts';

/** Long enough for a few agent runs through a real gateway on two busy cores; only stops a hang. */
export const RUN_WAIT_MS = 120_000;

export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
}

export async function call<T = Record<string, unknown>>(base: string, method: string, path: string, body?: unknown): Promise<Reply<T>> {
  const res = await fetch(`${base}${path}`, {
    method,
    signal: AbortSignal.timeout(60_000),
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}

export interface TeamMember {
  /** svc's agent id (= the gateway's agent id: agents made by team assignment). */
  id: string;
  name: string;
}

/** POST /api/teams, each member assigned (the agent row made by assignment), the lead set. */
export async function createTeam(base: string, name: string, members: readonly TeamMember[], leadId: string): Promise<string> {
  const created = await call<{ team: { id: string } }>(base, 'POST', '/api/teams', { name, icon: '🧪', color: '#336699' });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const teamId = created.body.team.id;
  for (const m of members) {
    const r = await call(base, 'POST', `/api/teams/${teamId}/agents`, { agentId: m.id, agentName: m.name });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  const lead = await call(base, 'PATCH', `/api/teams/${teamId}`, { leaderAgentId: leadId });
  assert.equal(lead.status, 200, JSON.stringify(lead.body));
  return teamId;
}

/** POST /api/teams/:id/chat, expecting the spec's 202 `{ ok: true }`. */
export async function chat(base: string, teamId: string, body: { message: string; targetAgentId?: string; entryId?: string }): Promise<void> {
  const r = await call(base, 'POST', `/api/teams/${teamId}/chat`, body);
  assert.deepEqual([r.status, r.body], [202, { ok: true }], `POST chat ${JSON.stringify(body).slice(0, 200)}`);
}

/** A transcript entry as the stream carries it: svc's one schema of it. */
export type Entry = TranscriptEntry;

/** One frame of the chat stream, parsed: a committed row (with its id) or a named frame. */
export type ChatFrame =
  | { type: 'row'; id: number; entry: Entry }
  | { type: 'delta'; sessionKey: string; runId: string; text: string }
  | { type: 'status'; agentId: string; status: string }
  | { type: 'board'; id: string; title?: string; status?: string; assigneeAgentId?: string | null }
  | { type: 'room'; id: number; authorAgentId: string; text: string; exchangeId: string | null }
  | { type: 'comment'; text: string };

function parseFrame(f: SseFrame): ChatFrame | null {
  if (f.comment !== undefined && f.data === undefined) return { type: 'comment', text: f.comment };
  if (f.data === undefined) return null;
  const data = JSON.parse(f.data) as Record<string, unknown>;
  if (f.event === undefined) return { type: 'row', id: Number(f.id), entry: data as unknown as Entry };
  return { type: f.event, ...data } as ChatFrame;
}

/** One line per frame for a failure message: rows with their role, kind, agent and text, named frames with their fields. */
function describeFrame(f: ChatFrame): string {
  if (f.type === 'row') {
    const e = f.entry;
    return `  row ${f.id} ${e.role}/${e.kind} ${e.sessionKey.split(':')[1] ?? e.sessionKey} run=${e.runId ?? '-'} ${JSON.stringify(e.text.slice(0, 100))}`;
  }
  if (f.type === 'comment') return `  : ${f.text}`;
  const { type, ...rest } = f;
  return `  ${type} ${JSON.stringify(rest).slice(0, 160)}`;
}

export interface ChatStream {
  frames(): ChatFrame[];
  rows(): Entry[];
  /** Waits until `pred` finds a frame (re-checked on each frame) and returns it. */
  until<F extends ChatFrame>(what: string, pred: (f: ChatFrame) => f is F, timeoutMs?: number): Promise<F>;
  until(what: string, pred: (f: ChatFrame) => boolean, timeoutMs?: number): Promise<ChatFrame>;
  /** Waits until `pred` holds over all frames so far (for an order: "idle after the reply"). */
  untilFrames(what: string, pred: (frames: ChatFrame[]) => boolean, timeoutMs?: number): Promise<ChatFrame[]>;
  /** Waits for a committed row matching `pred`. */
  row(what: string, pred: (e: Entry) => boolean, timeoutMs?: number): Promise<Entry>;
  headers: Headers;
  status: number;
  close(): Promise<void>;
}

/** GET /api/teams/:id/chat/stream; waits for `: connected`. */
export async function openChatStream(base: string, teamId: string, query = '', headers: Record<string, string> = {}): Promise<ChatStream> {
  const sse = await openSse(`${base}/api/teams/${teamId}/chat/stream${query}`, headers);
  if (sse.res.status !== 200) {
    await sse.close();
    throw new Error(`GET /api/teams/${teamId}/chat/stream answered ${sse.res.status}`);
  }
  const frames = () => sse.frames.map(parseFrame).filter((f): f is ChatFrame => f !== null);
  const failed = (what: string) => () => {
    throw new Error(`stream of team ${teamId}: never ${what}; the stream so far:\n${frames().map(describeFrame).join('\n')}`);
  };
  const find = async (what: string, pred: (f: ChatFrame) => boolean, timeoutMs = RUN_WAIT_MS): Promise<ChatFrame> => {
    await sse.until((raw) => raw.map(parseFrame).some((f) => f !== null && pred(f)), timeoutMs).catch(failed(`a frame for ${what}`));
    return frames().find(pred) as ChatFrame;
  };
  const stream: ChatStream = {
    frames,
    rows: () => frames().flatMap((f) => (f.type === 'row' ? [f.entry] : [])),
    until: find as ChatStream['until'],
    async untilFrames(what, pred, timeoutMs = RUN_WAIT_MS) {
      await sse.until((raw) => pred(raw.map(parseFrame).filter((f): f is ChatFrame => f !== null)), timeoutMs).catch(failed(what));
      return frames();
    },
    async row(what, pred, timeoutMs) {
      const f = await find(what, (x) => x.type === 'row' && pred(x.entry), timeoutMs);
      return (f as { entry: Entry }).entry;
    },
    headers: sse.res.headers,
    status: sse.res.status,
    close: () => sse.close(),
  };
  await find(': connected', (f) => f.type === 'comment' && f.text === 'connected', 30_000);
  return stream;
}

/** An orchestration event row with its `data` parsed. */
export interface EventRow {
  seq: number;
  kind: string;
  teamId: string | null;
  taskId: string | null;
  agentId: string | null;
  traceId: string | null;
  spanId: string | null;
  parentSpanId: string | null;
  correlationId: string | null;
  data: Record<string, unknown>;
}

/** GET /api/obs/events with the query, `data` parsed. */
export async function events(base: string, query: Record<string, string>): Promise<EventRow[]> {
  const r = await call<{ events: Array<Omit<EventRow, 'data'> & { data: string }> }>(base, 'GET', `/api/obs/events?${new URLSearchParams({ limit: '5000', ...query })}`);
  assert.equal(r.status, 200);
  return r.body.events.map((e) => ({ ...e, data: JSON.parse(e.data || '{}') as Record<string, unknown> }));
}

/** Waits until the event feed holds an event matching `pred`. */
export function untilEvent(base: string, what: string, query: Record<string, string>, pred: (e: EventRow) => boolean, timeoutMs = RUN_WAIT_MS): Promise<EventRow> {
  return waitFor(async () => (await events(base, query)).find(pred), { what, timeoutMs, intervalMs: 100 });
}

/** A row of the `executions` table (migration 12). */
export interface ExecutionRow {
  id: string;
  team_id: string;
  agent_id: string;
  session_key: string;
  run_id: string | null;
  task_id: string | null;
  trigger: string;
  chain_id: string;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  status: string;
  error: string | null;
  model: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
}

/** The executions of a team, oldest first, read from svc's database (read-only). */
export function executions(home: string, teamId: string): ExecutionRow[] {
  const db = openDatabase(join(home, 'svc.db'), { readonly: true });
  try {
    return db.prepare('SELECT * FROM executions WHERE team_id = ? ORDER BY started_at, id').all(teamId) as ExecutionRow[];
  } finally {
    db.close();
  }
}

/** Waits until the execution row of `runId` has `status`; a timeout shows the team's rows. */
export async function untilExecution(home: string, teamId: string, runId: string, status: string, timeoutMs?: number): Promise<ExecutionRow> {
  try {
    return await waitFor(() => executions(home, teamId).find((r) => r.run_id === runId && r.status === status), { what: `run ${runId} to be ${status}`, timeoutMs });
  } catch (err) {
    const rows = executions(home, teamId).map((r) => ({ run: r.run_id, agent: r.agent_id, trigger: r.trigger, status: r.status, error: r.error }));
    throw new Error(`${(err as Error).message}; executions of the team: ${JSON.stringify(rows)}`);
  }
}

/** GET /api/chat-history for one session key, oldest first. */
export async function history(base: string, sessionKey: string): Promise<Entry[]> {
  const r = await call<{ entries: Entry[] }>(base, 'GET', `/api/chat-history?sessionKey=${encodeURIComponent(sessionKey)}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.entries;
}

/** The gateway attach snippet for one agent (GET /api/mcp/config?server=&runtime=gateway&agentId=), its structured form. */
export async function gatewaySnippet(base: string, server: string, agentId: string, teamId?: string): Promise<Record<string, unknown>> {
  const q = new URLSearchParams({ server, runtime: 'gateway', agentId, ...(teamId ? { teamId } : {}) });
  const r = await call<{ config: { structured: Record<string, unknown> } }>(base, 'GET', `/api/mcp/config?${q}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.config.structured;
}

export const teamKey = (agentId: string, teamId: string): string => `agent:${agentId}:team:${teamId}`;
