// Issue 23 item 1 end to end on a REAL OpenClaw gateway (the test cache's
// openclaw, the kit's fake model): the gateway's own team preset (`openclaw
// agents team create --non-interactive --json`, docs/gateway-facts.md, "Team
// preset") is imported into svc in one call, and a roster change in svc
// rewrites the coordinator's `subagents.allowAgents` in openclaw.json, which
// the gateway hot-reloads and enforces (a spawn to the removed member is
// `forbidden`).
// svc runs as a child process and finds the gateway through OPENCLAW_STATE_DIR.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sendChat } from '../../shared/gateway/chat.ts';
import { startTeamChatGateway, type TeamChatGateway } from '../helpers/team-chat-gateway.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

const SETUP_TIMEOUT_MS = 20 * 60_000;
const SPECIALISTS = ['researcher', 'writer', 'reviewer'];

interface Json { [k: string]: unknown }

let gw: TeamChatGateway | undefined;
let svc: RunningServer | undefined;

before(async () => {
  gw = await startTeamChatGateway('svc-team-preset-');
  await gw.start();
  svc = await startServer({ home: gw.home, env: gw.env, timeoutMs: 120_000 });
  // The CLI edits openclaw.json under the gateway's own lock; the running gateway hot-reloads it.
  const { stdout } = await promisify(execFile)('openclaw', ['agents', 'team', 'create', '--non-interactive', '--json'], {
    env: { ...process.env, ...gw.env },
    timeout: 180_000,
  });
  const created = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { coordinatorId?: string };
  assert.equal(created.coordinatorId, 'coordinator', stdout);
}, { timeout: SETUP_TIMEOUT_MS });

after(async () => {
  await svc?.stop();
  await gw?.close();
});

function rig(): { gw: TeamChatGateway; base: string; svc: RunningServer } {
  if (!gw || !svc) throw new Error('no setup (did before() fail?)');
  return { gw, base: svc.base, svc };
}

async function call(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

const gatewayLog = (stateDir: string): string => readFileSync(join(stateDir, 'openclaw-file.log'), 'utf8');

/** The gateway's own log lines about config reloads (why a rewritten list did or did not take). */
function reloadLines(stateDir: string): string {
  try {
    return gatewayLog(stateDir).split('\n').filter((l) => /reload|config/i.test(l)).slice(-30).join('\n');
  } catch (err) {
    return `(no gateway log: ${String(err)})`;
  }
}

const coordinatorSubagents = (stateDir: string): Json => {
  const config = JSON.parse(readFileSync(join(stateDir, 'openclaw.json'), 'utf8')) as { agents: { entries: Record<string, Json> } };
  return config.agents.entries.coordinator?.subagents as Json;
};

void test('Delegation (issue 23, item 1): a team made with `openclaw agents team create` is imported in one call; removing a member in svc rewrites the coordinator\'s allowAgents, which the gateway hot-reloads and enforces', { timeout: 10 * 60_000 }, async () => {
  const { gw: g, base } = rig();

  // The import dialog's list: the coordinator with the three agents it may spawn.
  const candidates = await waitFor(async () => {
    const r = await call(base, 'GET', '/api/teams/import/candidates');
    const agents = (r.json.agents ?? []) as Array<{ id: string; name: string; allowAgents: string[] | null }>;
    // The CLI writes one agent after the other; the gateway lists each once it has hot-reloaded it.
    return r.status === 200 && ['coordinator', ...SPECIALISTS].every((id) => agents.some((a) => a.id === id)) ? agents : null;
  }, { what: 'the preset\'s four agents in GET /api/teams/import/candidates', timeoutMs: 60_000, intervalMs: 250 });
  assert.deepEqual(candidates.find((a) => a.id === 'coordinator')?.allowAgents, SPECIALISTS);
  assert.deepEqual(candidates.find((a) => a.id === 'writer')?.allowAgents, []);

  // Bad input against a live gateway: an id it lacks, and an agent with nothing to import. No team is made.
  const unknown = await call(base, 'POST', '/api/teams/import', { coordinatorId: 'nobody' });
  assert.deepEqual([unknown.status, unknown.json], [404, { error: 'agent not found on the gateway' }]);
  const empty = await call(base, 'POST', '/api/teams/import', { coordinatorId: 'writer' });
  assert.deepEqual([empty.status, empty.json], [409, { error: 'agent has no sub-agents to import' }]);
  assert.deepEqual((await call(base, 'GET', '/api/teams')).json.teams, []);

  const imported = await call(base, 'POST', '/api/teams/import', { coordinatorId: 'coordinator' });
  assert.equal(imported.status, 201, JSON.stringify(imported.json));
  const team = imported.json.team as { id: string; name: string; leaderAgentId: string };
  assert.equal(team.leaderAgentId, 'coordinator');
  assert.equal(team.name, candidates.find((a) => a.id === 'coordinator')?.name);
  const members = (await call(base, 'GET', `/api/agents?teamId=${team.id}`)).json.agents as Array<{ id: string; gatewayId: string }>;
  assert.deepEqual(members.map((m) => m.gatewayId).sort(), [...SPECIALISTS].sort());
  const delegation = await call(base, 'GET', `/api/teams/${team.id}/delegation`);
  assert.deepEqual(((delegation.json.allowAgents as Json).coordinator as string[]).sort(), [...SPECIALISTS].sort());

  // A member removed in svc: the coordinator may no longer spawn it; the preset's delegationMode stays.
  const writer = members.find((m) => m.gatewayId === 'writer');
  assert.ok(writer);
  const removed = await call(base, 'DELETE', `/api/teams/${team.id}/agents/${writer.id}`);
  assert.equal(removed.status, 200);
  // The rewrite follows the removal (the wiring service hears the roster change), not inside the DELETE's answer.
  const sub = await waitFor(() => {
    const s = coordinatorSubagents(g.stateDir);
    return (s.allowAgents as string[]).length === 2 ? s : null;
  }, { what: 'the coordinator\'s allowAgents rewritten without the writer', timeoutMs: 60_000, intervalMs: 100 });
  assert.deepEqual((sub.allowAgents as string[]).sort(), ['researcher', 'reviewer']);
  // Through the running gateway's own config.patch (a file written beside it can go unnoticed), not the file fallback;
  // the same patch takes the member's MCP entries out (svc's wiring is one write).
  assert.match(gatewayLog(g.stateDir), /config\.patch write .*changedPaths=\S*agents\.entries\.coordinator\.subagents\.allowAgents/, 'svc patched the list through the gateway');
  assert.doesNotMatch(rig().svc.output(), /config\.patch of the delegation lists failed/);
  assert.equal(sub.delegationMode, 'prefer');

  // The gateway still runs on the rewritten file, and enforces it: a spawn to the removed member is refused.
  const session = await g.session();
  const listed = (await session.request('agents.list', {})) as { agents: Array<{ id: string }> };
  assert.ok(listed.agents.some((a) => a.id === 'coordinator'));
  const seen: string[] = [];
  const refused = await waitFor(async () => {
    const turn = await sendChat(session, {
      sessionKey: `agent:coordinator:preset-probe-${randomBytes(3).toString('hex')}`,
      message: 'TOOL: sessions_spawn {"task":"draft the summary","agentId":"writer","label":"draft"}',
      timeoutMs: 90_000,
    });
    seen.push(`${turn.state}: ${turn.text.slice(0, 300)}`);
    return turn.state === 'final' && /forbidden/.test(turn.text) ? turn : null;
  }, { what: 'the gateway to refuse a spawn to the removed writer', timeoutMs: 120_000, intervalMs: 500 }).catch((err: Error) => {
    throw new Error(`${err.message}; turns seen: ${seen.slice(-3).join(' | ')}; the file now: ${JSON.stringify(coordinatorSubagents(g.stateDir))}; the gateway's config reloads:\n${reloadLines(g.stateDir)}`);
  });
  assert.match(refused.text, /allowed: [^)]*researcher/);
  assert.doesNotMatch(refused.text, /allowed: [^)]*writer/);
});
