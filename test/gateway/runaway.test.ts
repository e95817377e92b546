// Issue 31 item 7 on a REAL OpenClaw gateway routed through svc: a model
// that loops on one tool (the fake model's `LOOP:`, the same `read` of the
// same file on every call, so the same result every time) is ended by svc's
// model endpoint at the team's `maxIdenticalRepeats`: the ended call answers
// a normal completion, the gateway ends the run there, and svc leaves a
// `loop_detected` event, a transcript note and an `ended` model_calls row.
// The gateway's own `tools.loopDetection` stays off (its default), so only
// svc's limit is at work. A recording pass-through between svc and the fake
// model keeps the bodies the gateway sent, for the failure messages. One
// gateway and one svc for the file.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sendChat } from '../../shared/gateway/chat.ts';
import { call, chat, createTeam, executions, history, openChatStream, teamKey, untilEvent } from '../helpers/team-chat-api.ts';
import { startTeamChatGateway, type TeamChatGateway } from '../helpers/team-chat-gateway.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';
import { startRecorder, type Recorder } from '../helpers/recording-upstream.ts';

const SETUP_TIMEOUT_MS = 20 * 60_000;
const RUN_MS = 180_000;
const REPEATS = 3;
const LOOP_FILE = 'loop.txt';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API bodies

let gw: TeamChatGateway | undefined;
let svc: RunningServer | undefined;
let recorder: Recorder | undefined;
let looper = '';

const gateway = () => gw as TeamChatGateway;
const base = () => (svc as RunningServer).base;
const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json; text: string }> => {
  const r = await call<Json>(base(), method, path, body);
  return { ...r, text: JSON.stringify(r.body) };
};
const callsOf = async (query: Record<string, string>): Promise<Json[]> => (await api('GET', `/api/model-calls?${new URLSearchParams({ limit: '500', ...query })}`)).body.calls as Json[];

/** The chat-completions requests that reached the provider, each as its messages' roles (tool results shortened): what the gateway sent around the loop. */
function sentBodies(): string {
  return (recorder as Recorder).seen
    .filter((s) => s.path.endsWith('/chat/completions'))
    .map((s, i) => {
      const body = JSON.parse(s.body || '{}') as { messages?: Json[] };
      const roles = (body.messages ?? []).map((m) => (m.role === 'tool' ? `tool(${JSON.stringify(m.content).slice(0, 60)})` : m.role === 'assistant' && m.tool_calls ? `assistant[${m.tool_calls.map((c: Json) => c.function?.name).join('+')}]` : m.role));
      return `  #${i + 1} ${roles.join(' ')}`;
    })
    .join('\n');
}

before(async () => {
  gw = await startTeamChatGateway('svc-runaway-e2e-');
  recorder = await startRecorder(gw.model.url);
  gw.mergeConfig({ models: { providers: { fakellm: { baseUrl: recorder.url } } } });
  await gw.start();
  svc = await startServer({ home: gw.home, env: gw.env, timeoutMs: 120_000 });
  [looper] = (await gw.createAgents(['Looper'])) as [string];
  // What the loop reads: the same text on every call.
  const workspace = join(gw.stateDir, 'workspaces', 'looper');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, LOOP_FILE), 'the same line, every time\n');
  const synced = await api('POST', '/api/system/model-routing/sync');
  assert.equal(synced.body.lastSync?.ok, true, synced.text);
  // The gateway runs the looper through svc before the test (a reload in between fails a run as "superseded").
  const session = await gw.session();
  await waitFor(async () => {
    const t = await sendChat(session, { sessionKey: `agent:${looper}:warm-up`, message: 'warm up', timeoutMs: RUN_MS });
    return t.state === 'final' && (await callsOf({ agentId: looper })).some((c) => c.outcome === 'ok');
  }, { what: 'a first call of the looper through svc', timeoutMs: RUN_MS, intervalMs: 1000 });
}, { timeout: SETUP_TIMEOUT_MS });

after(async () => {
  await svc?.stop();
  await recorder?.close();
  await gw?.close();
});

void test(`Runaway (issue 31, item 7): on the real gateway, a model calling the same tool with the same result every turn is ended after ${REPEATS} repeats: a loop_detected event, a transcript note, an ended model call, and the gateway calls the model no more`, async () => {
  const teamId = await createTeam(base(), 'Loop Team', [{ id: looper, name: 'Looper' }], looper);
  const limits = await api('PUT', `/api/teams/${teamId}/runaway-limits`, { maxIdenticalRepeats: REPEATS });
  assert.equal(limits.status, 200, limits.text);
  assert.equal(limits.body.limits.maxIdenticalRepeats, REPEATS, limits.text);
  const key = teamKey(looper, teamId);
  const text = `svc ended this turn: ${looper} repeated the same read call ${REPEATS} times with the same result (the limit is ${REPEATS}).`;
  const loopPrompt = `LOOP: read ${JSON.stringify({ path: LOOP_FILE })}`;
  const loopRequests = () => gateway().model.requests.filter((r) => r.prompt === loopPrompt);

  const stream = await openChatStream(base(), teamId);
  try {
    await chat(base(), teamId, { message: loopPrompt });
    const event = await untilEvent(base(), 'a loop_detected event for the looper', { teamId }, (e) => e.kind === 'loop_detected' && e.agentId === looper, RUN_MS)
      .catch((err: Error) => {
        throw new Error(`${err.message}\nwhat the gateway sent:\n${sentBodies()}`);
      });
    assert.deepEqual(
      [event.data.reason, event.data.count, event.data.limit, event.data.tool, event.data.sessionKey, event.data.text],
      ['repeated_tool_call', REPEATS, REPEATS, 'read', key, text],
      `${JSON.stringify(event)}\nwhat the gateway sent:\n${sentBodies()}`,
    );
    const note = await stream.row('the runaway note in the transcript', (e) => e.kind === 'meta' && e.sessionKey === key && e.text === text, RUN_MS);
    assert.equal(note.role, 'system');
    // The ended call's text is the agent's answer: the run ends normally there.
    await stream.row("the looper's answer: svc's text", (e) => e.role === 'assistant' && e.sessionKey === key && e.text.includes(text), RUN_MS);
    const runId = event.data.runId as string;
    assert.ok(runId, JSON.stringify(event));
    const run = await waitFor(() => executions(gateway().home, teamId).find((r) => r.run_id === runId && r.status !== 'running'), { what: 'the looping run to end', timeoutMs: RUN_MS });
    assert.equal(run.status, 'completed', JSON.stringify(run));

    const turnCalls = await callsOf({ runId });
    const ended = turnCalls.filter((c) => c.outcome === 'ended');
    assert.equal(ended.length, 1, JSON.stringify(turnCalls));
    assert.equal(ended[0]?.id, event.data.modelCallId);
    assert.equal(ended[0]?.costUsd, 0);
    assert.ok(turnCalls.length <= REPEATS + 1, `the turn made ${turnCalls.length} model calls, at most ${REPEATS + 1}: ${JSON.stringify(turnCalls.map((c) => c.outcome))}`);
    assert.deepEqual(turnCalls.filter((c) => c.outcome !== 'ended').map((c) => c.outcome), Array(REPEATS).fill('ok'), `the calls before the ended one reached the provider: ${JSON.stringify(turnCalls.map((c) => [c.outcome, c.status, c.error]))}\n${sentBodies()}`);
    assert.equal(loopRequests().length, REPEATS, `the provider saw ${REPEATS} calls of the loop\n${sentBodies()}`);

    // The next message is a new turn with fresh counts, and it is answered only after the looping run is over:
    // by then the provider has seen no further call of the loop.
    await chat(base(), teamId, { message: 'are you done' });
    await stream.row('the answer to the next message', (e) => e.role === 'assistant' && e.sessionKey === key && e.text.includes('ECHO: are you done'), RUN_MS);
    assert.equal(loopRequests().length, REPEATS, `no call of the loop after the end\n${sentBodies()}`);
    assert.equal((await callsOf({ agentId: looper })).filter((c) => c.outcome === 'ended').length, 1, 'the new turn was not ended');

    // What a person reads afterwards.
    const entries = await history(base(), key);
    assert.equal(entries.filter((e) => e.kind === 'meta' && e.text === text).length, 1, 'one note for the turn');
  } finally {
    await stream.close();
  }
});
