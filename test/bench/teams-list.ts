// GET /api/teams throughput, 50 connections, against baselines measured in
// the same run. svc serves the list from a body cached against the database
// version (supervisor/cached-json.ts), so a request costs one tiny version
// query plus the bytes. The svc database is seeded before svc starts
// (lib/seed.ts: 50 teams, 5,000 agents, UUIDv7 ids). Two scenarios:
//
// (A) 5 agents per team assigned (250 assignments, ~36 KB body; the other
//     4,750 agents unassigned), against a raw node:http hello-world. Target:
//     svc ≥ 50 % of raw req/s (median of the per-round ratios) and svc p99
//     < 20 ms (median of the rounds' p99). For context, printed beside it: a
//     raw node:http server serving svc's exact bytes (what the body alone
//     costs), a naive route (a raw node:http server that runs the list's two
//     queries with better-sqlite3 on the same file, read-only, and
//     JSON.stringify's them on every request) and a revalidating client
//     (If-None-Match with the ETag, answered 304).
// (B) all 5,000 agents assigned (~500 KB body), against a raw node:http
//     server that serves the identical precomputed bytes (fetched once from
//     svc): bound by bytes, not by svc, so no target; the ratio and svc's p99
//     are for the report.
//
// As in settings-throughput.ts: servers pinned to CPU 1, the load generator
// (this process) to CPU 0, 2 s warm-up + 5 s measured per run, four rounds
// whose order rotates, every response checked (no errors, no timeouts, only
// 2xx, or only 304 for the revalidating client).
import autocannon, { type AutocannonResult } from 'autocannon';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, removeHome, tempHome } from '../helpers/server.ts';
import { TEAM_COLUMNS_SQL, type TeamList } from '../../shared/teams/types.ts';
import { httpRequest, waitFor200 } from './lib/http.ts';
import { cpuSeconds } from './lib/proc.ts';
import { pinToCpus, spawnNode, type Proc } from './lib/processes.ts';
import { seedTeams } from './lib/seed.ts';
import { fmt, median, pct } from './lib/stats.ts';
import { startSvc, type Svc } from './lib/svc.ts';
import type { Benchmark, BenchResult } from './lib/types.ts';

const CONNECTIONS = 50;
const WARMUP_S = 2;
const MEASURE_S = 5;
const ROUNDS = 4;
const TEAMS = 50;
const AGENTS = 5000;
/** Scenario A: agents assigned per team (the others unassigned). */
const ASSIGNED_PER_TEAM_A = 5;
const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 20;

// Same headers as a fastify JSON reply, so only the framework's work differs.
const RAW_HELLO = `
const http = require('node:http');
const body = JSON.stringify({ hello: 'world' });
http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

// The bytes svc served (BODY_FILE), with the headers svc sends beside them.
const RAW_BYTES = `
const http = require('node:http');
const body = require('node:fs').readFileSync(process.env.BODY_FILE);
const headers = {
  'content-type': 'application/json; charset=utf-8', 'content-length': body.length,
  etag: process.env.ETAG, 'cache-control': 'no-cache',
};
http.createServer((req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

// The list as a route without a cache would build it: the two queries on
// every request (the team count as a correlated subquery), JSON.stringify.
// Same columns and order as the product's list, so the body is the same.
const NAIVE = `
const http = require('node:http');
const Database = require('better-sqlite3');
const db = new Database(process.env.DB_PATH, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const teams = db.prepare(\`SELECT ${TEAM_COLUMNS_SQL}, (SELECT COUNT(*) FROM agents a WHERE a.team_id = t.id) AS agentCount
  FROM teams t WHERE t.is_archived = 0 ORDER BY t.created_at, t.id\`);
const assignments = db.prepare('SELECT id AS agentId, team_id AS teamId FROM agents WHERE team_id IS NOT NULL ORDER BY team_id, created_at, id');
http.createServer((req, res) => {
  const body = JSON.stringify({ teams: teams.all(), assignments: assignments.all() });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

interface Run {
  rps: number;
  p99: number;
  /** Server CPU per request (µs). */
  cpuUs: number;
  /** Server CPU over the run, % of one core (100 % = the server was the bottleneck). */
  cpuPct: number;
  /** Response bytes per second the load generator read (MB/s). */
  mbps: number;
}

interface Target {
  label: string;
  url: string;
  pid: number;
  runs: Run[];
  headers?: Record<string, string>;
  /** The revalidating client: every answer must be a 304. */
  expect304?: boolean;
}

async function load(t: Target): Promise<Run> {
  const opts = { url: t.url, connections: CONNECTIONS, headers: t.headers };
  await autocannon({ ...opts, duration: WARMUP_S });
  const cpu0 = cpuSeconds(t.pid);
  const t0 = performance.now();
  const r: AutocannonResult = await autocannon({ ...opts, duration: MEASURE_S });
  const cpu = cpuSeconds(t.pid) - cpu0;
  const wall = (performance.now() - t0) / 1000;
  const good = t.expect304 ? r['3xx'] : r['2xx'];
  const wrong = t.expect304 ? r.non2xx - r['3xx'] + r['2xx'] : r.non2xx;
  if (r.errors + r.timeouts + wrong > 0 || good === 0) {
    throw new Error(
      `${t.label.trim()}: ${r.errors} errors, ${r.timeouts} timeouts, ${wrong} answers other than ${t.expect304 ? '304' : '2xx'} of ${r.requests.total}`,
    );
  }
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    cpuUs: (cpu / r.requests.total) * 1e6,
    cpuPct: (cpu / wall) * 100,
    mbps: r.throughput.average / 1e6,
  };
}

const show = (r: Run) =>
  `${fmt(r.rps)} req/s (p99 ${r.p99} ms; ${fmt(r.mbps, 1)} MB/s; server ${fmt(r.cpuUs, 1)} µs CPU/req, ${fmt(r.cpuPct)} % of a core)`;

/** Every target once per round, the order rotating so that none always runs first or last. */
async function rounds(targets: Target[]): Promise<void> {
  for (let i = 1; i <= ROUNDS; i++) {
    for (let k = 0; k < targets.length; k++) {
      const t = targets[(i + k) % targets.length] as Target;
      const r = await load(t);
      t.runs.push(r);
      console.log(`  round ${i}: ${t.label} ${show(r)}`);
    }
  }
}

const medianOf = (runs: Run[], f: (r: Run) => number) => median(runs.map(f));
const ratios = (mine: Run[], base: Run[]) => mine.map((r, i) => r.rps / (base[i] as Run).rps);

/** Fetches the list once: checks its shape against the seed, returns its bytes and ETag. */
async function fetchList(port: number, assigned: number): Promise<{ body: string; etag: string }> {
  const r = await httpRequest(port, '/api/teams', { timeoutMs: 20_000 });
  if (r.status !== 200) throw new Error(`GET /api/teams: HTTP ${r.status}: ${r.body.slice(0, 300)}`);
  const list = JSON.parse(r.body) as TeamList;
  const counted = list.teams.reduce((n, t) => n + t.agentCount, 0);
  if (list.teams.length !== TEAMS || list.assignments.length !== assigned || counted !== assigned) {
    throw new Error(`GET /api/teams: ${list.teams.length} teams, ${list.assignments.length} assignments, agentCount sum ${counted}; seeded ${TEAMS} and ${assigned}`);
  }
  const etag = r.headers.etag;
  if (typeof etag !== 'string') throw new Error('GET /api/teams: no ETag');
  const revalidated = await httpRequest(port, '/api/teams', { headers: { 'if-none-match': etag } });
  if (revalidated.status !== 304) throw new Error(`GET /api/teams with If-None-Match: HTTP ${revalidated.status}, expected 304`);
  return { body: r.body, etag };
}

/** A seeded home and svc started on it; the home is svc's to remove from then on. */
async function seededSvc(assignedPerTeam: number): Promise<{ svc: Svc; assigned: number }> {
  const home = tempHome('svc-bench-teams-');
  let assigned: number;
  try {
    const t0 = performance.now();
    ({ assigned } = seedTeams(join(home, 'svc.db'), { teams: TEAMS, agents: AGENTS, assignedPerTeam }));
    console.log(`  seeded ${TEAMS} teams, ${fmt(AGENTS)} agents (${fmt(assigned)} assigned) in ${fmt(performance.now() - t0)} ms`);
  } catch (err) {
    removeHome(home);
    throw err;
  }
  return { svc: await startSvc({}, { home }), assigned };
}

/** A raw node:http server serving `body` with svc's headers; checks that it serves the same bytes. */
async function rawBytesServer(svc: Svc, body: string, etag: string): Promise<{ proc: Proc; port: number }> {
  const bodyFile = join(svc.home, 'bench-teams-body.json');
  writeFileSync(bodyFile, body);
  const port = await freePort();
  const proc = spawnNode(['-e', RAW_BYTES], { ...process.env, PORT: String(port), BODY_FILE: bodyFile, ETAG: etag });
  try {
    await waitFor200(port, '/', proc);
    const served = (await httpRequest(port, '/', { timeoutMs: 20_000 })).body;
    if (served !== body) throw new Error('the raw server does not serve the bytes svc served');
  } catch (err) {
    await proc.stop();
    throw err;
  }
  return { proc, port };
}

async function stopAll(procs: Array<Proc | Svc | undefined>): Promise<void> {
  for (const p of procs) await p?.stop();
}

interface ScenarioA {
  ratio: number;
  /** svc / raw node:http serving the same bytes. */
  bytesRatio: number;
  bytesRps: number;
  p99: number;
  svcRps: number;
  rawRps: number;
  naiveRps: number;
  revalRps: number;
  bodyBytes: number;
}

async function scenarioA(): Promise<ScenarioA> {
  console.log(`  (A) ${TEAMS} teams, ${fmt(AGENTS)} agents, ${ASSIGNED_PER_TEAM_A} per team assigned`);
  const { svc, assigned } = await seededSvc(ASSIGNED_PER_TEAM_A);
  let raw: Proc | undefined;
  let bytes: Proc | undefined;
  let naive: Proc | undefined;
  let pinned = false;
  try {
    const { body, etag } = await fetchList(svc.port, assigned);
    const rawPort = await freePort();
    raw = spawnNode(['-e', RAW_HELLO], { ...process.env, PORT: String(rawPort) });
    const naivePort = await freePort();
    naive = spawnNode(['-e', NAIVE], { ...process.env, PORT: String(naivePort), DB_PATH: svc.dbPath });
    const rawBytes = await rawBytesServer(svc, body, etag);
    bytes = rawBytes.proc;
    pinned =
      pinToCpus(process.pid, '0') &&
      pinToCpus(raw.pid, '1') &&
      pinToCpus(bytes.pid, '1') &&
      pinToCpus(naive.pid, '1') &&
      pinToCpus(svc.proc.pid, '1');
    console.log(pinned ? '  pinned: servers on CPU 1, load generator on CPU 0' : '  taskset unavailable: running unpinned');
    await waitFor200(rawPort, '/', raw);
    await waitFor200(naivePort, '/', naive);
    const naiveBody = (await httpRequest(naivePort, '/')).body;
    const bodyBytes = Buffer.byteLength(body);
    console.log(`  body ${fmt(bodyBytes / 1024, 1)} KB, ETag ${etag}; naive route's body ${naiveBody === body ? 'identical' : 'DIFFERENT'}`);

    const svcUrl = `http://127.0.0.1:${svc.port}/api/teams`;
    const rawT: Target = { label: 'raw node:http hello    ', url: `http://127.0.0.1:${rawPort}/`, pid: raw.pid, runs: [] };
    const bytesT: Target = { label: 'raw node:http same body', url: `http://127.0.0.1:${rawBytes.port}/`, pid: bytes.pid, runs: [] };
    const svcT: Target = { label: 'GET /api/teams         ', url: svcUrl, pid: svc.proc.pid, runs: [] };
    const naiveT: Target = { label: 'naive route (no cache) ', url: `http://127.0.0.1:${naivePort}/`, pid: naive.pid, runs: [] };
    const revalT: Target = {
      label: 'svc If-None-Match→304  ',
      url: svcUrl,
      pid: svc.proc.pid,
      runs: [],
      headers: { 'if-none-match': etag },
      expect304: true,
    };
    await rounds([rawT, bytesT, svcT, naiveT, revalT]);

    const r = ratios(svcT.runs, rawT.runs);
    const out: ScenarioA = {
      ratio: median(r),
      bytesRatio: median(ratios(svcT.runs, bytesT.runs)),
      bytesRps: medianOf(bytesT.runs, (x) => x.rps),
      p99: medianOf(svcT.runs, (x) => x.p99),
      svcRps: medianOf(svcT.runs, (x) => x.rps),
      rawRps: medianOf(rawT.runs, (x) => x.rps),
      naiveRps: medianOf(naiveT.runs, (x) => x.rps),
      revalRps: medianOf(revalT.runs, (x) => x.rps),
      bodyBytes,
    };
    const naiveRatio = median(ratios(naiveT.runs, rawT.runs));
    const revalRatio = median(ratios(revalT.runs, rawT.runs));
    const cpuUs = (t: Target) => Math.min(...t.runs.map((x) => x.cpuUs));
    console.log(`  (A) per-round req/s ratios svc/raw: ${r.map((x) => pct(x)).join(', ')}`);
    console.log(`  (A) svc p99 per round: ${svcT.runs.map((x) => `${x.p99} ms`).join(', ')}`);
    console.log(
      `  (A) medians: raw hello ${fmt(out.rawRps)} req/s, raw same body ${fmt(out.bytesRps)} req/s, ` +
        `svc ${fmt(out.svcRps)} req/s (${pct(out.ratio)} of raw hello, ${pct(out.bytesRatio)} of raw same body; p99 ${out.p99} ms), ` +
        `naive ${fmt(out.naiveRps)} req/s (${pct(naiveRatio)} of raw; svc = ${fmt(out.svcRps / out.naiveRps, 1)}× naive), ` +
        `revalidating 304 ${fmt(out.revalRps)} req/s (${pct(revalRatio)} of raw)`,
    );
    console.log(
      `  (A) server CPU per request (lowest round): raw hello ${fmt(cpuUs(rawT), 1)} µs, raw same body ${fmt(cpuUs(bytesT), 1)} µs, svc ${fmt(cpuUs(svcT), 1)} µs, ` +
        `naive ${fmt(cpuUs(naiveT), 1)} µs, svc 304 ${fmt(cpuUs(revalT), 1)} µs`,
    );
    return out;
  } finally {
    if (pinned) pinToCpus(process.pid, '0-1');
    await stopAll([raw, bytes, naive, svc]);
  }
}

interface ScenarioB {
  ratio: number;
  p99: number;
  rawP99: number;
  svcRps: number;
  rawRps: number;
  bodyBytes: number;
}

async function scenarioB(): Promise<ScenarioB> {
  console.log(`  (B) ${TEAMS} teams, ${fmt(AGENTS)} agents, all assigned`);
  const { svc, assigned } = await seededSvc(AGENTS / TEAMS);
  let raw: Proc | undefined;
  let pinned = false;
  try {
    const { body, etag } = await fetchList(svc.port, assigned);
    const rawBytes = await rawBytesServer(svc, body, etag);
    raw = rawBytes.proc;
    const rawPort = rawBytes.port;
    pinned = pinToCpus(process.pid, '0') && pinToCpus(raw.pid, '1') && pinToCpus(svc.proc.pid, '1');
    console.log(pinned ? '  pinned: servers on CPU 1, load generator on CPU 0' : '  taskset unavailable: running unpinned');
    const bodyBytes = Buffer.byteLength(body);
    console.log(`  body ${fmt(bodyBytes / 1024, 1)} KB (${fmt(assigned)} assignments), served by both`);

    const rawT: Target = { label: 'raw node:http same body', url: `http://127.0.0.1:${rawPort}/`, pid: raw.pid, runs: [] };
    const svcT: Target = { label: 'GET /api/teams         ', url: `http://127.0.0.1:${svc.port}/api/teams`, pid: svc.proc.pid, runs: [] };
    await rounds([rawT, svcT]);

    const r = ratios(svcT.runs, rawT.runs);
    const out: ScenarioB = {
      ratio: median(r),
      p99: medianOf(svcT.runs, (x) => x.p99),
      rawP99: medianOf(rawT.runs, (x) => x.p99),
      svcRps: medianOf(svcT.runs, (x) => x.rps),
      rawRps: medianOf(rawT.runs, (x) => x.rps),
      bodyBytes,
    };
    console.log(`  (B) per-round req/s ratios svc/raw: ${r.map((x) => pct(x)).join(', ')}`);
    console.log(
      `  (B) medians: raw same bytes ${fmt(out.rawRps)} req/s (p99 ${out.rawP99} ms), svc ${fmt(out.svcRps)} req/s ` +
        `(${pct(out.ratio)} of raw, p99 ${out.p99} ms)`,
    );
    return out;
  } finally {
    if (pinned) pinToCpus(process.pid, '0-1');
    await stopAll([raw, svc]);
  }
}

async function run(): Promise<BenchResult> {
  const a = await scenarioA();
  const b = await scenarioB();
  const ratioOk = a.ratio >= TARGET_RATIO;
  const p99Ok = a.p99 < TARGET_P99_MS;
  console.log(`  ${ratioOk ? 'PASS' : 'FAIL'}: (A) GET /api/teams at ${pct(a.ratio)} of raw node:http hello req/s (target ≥ ${pct(TARGET_RATIO, 0)})`);
  console.log(`  ${p99Ok ? 'PASS' : 'FAIL'}: (A) GET /api/teams p99 ${a.p99} ms (target < ${TARGET_P99_MS} ms)`);
  console.log(`  INFO: (A) svc at ${pct(a.bytesRatio)} of raw node:http serving the same ${fmt(a.bodyBytes / 1024)} KB body`);
  console.log(`  INFO: (B) ${fmt(b.bodyBytes / 1024)} KB body: svc at ${pct(b.ratio)} of raw node:http serving the same bytes, p99 ${b.p99} ms (no target)`);
  return {
    name: 'teams-list',
    figures:
      `(A ${fmt(a.bodyBytes / 1024)} KB) svc ${fmt(a.svcRps)} req/s p99 ${a.p99} ms, raw hello ${fmt(a.rawRps)}, raw same body ${fmt(a.bytesRps)}, ` +
      `naive ${fmt(a.naiveRps)}, 304 ${fmt(a.revalRps)}; ` +
      `(B ${fmt(b.bodyBytes / 1024)} KB) svc ${fmt(b.svcRps)} req/s p99 ${b.p99} ms, raw same bytes ${fmt(b.rawRps)}`,
    ratio:
      `(A) ${pct(a.ratio)} of raw hello, ${pct(a.bytesRatio)} of raw same body; (B) ${pct(b.ratio)} of raw same body ` +
      `(median per-round req/s ratios, ${ROUNDS} rounds)`,
    target: `(A) ≥ ${pct(TARGET_RATIO, 0)} of raw req/s and p99 < ${TARGET_P99_MS} ms`,
    pass: ratioOk && p99Ok,
  };
}

export const teamsList: Benchmark = { name: 'teams-list', run };
