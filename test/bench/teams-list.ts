// GET /api/teams throughput, 50 connections, against baselines measured in
// the same run. svc serves the list from a body cached against the database
// version (supervisor/http/cached-json.ts): a request costs one read of the
// WAL-index header plus the bytes, gzipped once per version for a client that
// accepts gzip. The svc database is seeded before svc starts (lib/seed.ts:
// 50 teams, 5,000 agents, UUIDv7 ids). Two scenarios:
//
// (A) 5 agents per team assigned (250 assignments; ~36 KB of JSON, ~6 KB
//     gzipped; the other 4,750 agents unassigned), against a raw node:http
//     hello-world. Judged: the request a browser (the dashboard) sends, with
//     `Accept-Encoding: gzip, deflate, br, zstd`: svc ≥ 50 % of raw per core,
//     as settings-throughput.ts judges (raw's lowest server CPU time per
//     request over svc's; the req/s ratio, median of the per-round ratios,
//     printed beside it: on two cores with the load generator on one, req/s
//     follows the client as much as the server) and p99 < 20 ms (median of
//     the rounds' p99). Printed beside it: the same request without
//     Accept-Encoding (plain JSON), a raw node:http server serving svc's exact
//     bytes and headers for each of the two (what the bytes alone cost: with
//     the load generator on one core, 36 KB per answer bounds req/s whoever
//     serves them), a naive route (a raw node:http server that runs the
//     list's two queries with better-sqlite3 on the same file, read-only, and
//     JSON.stringify's them on every request) and a revalidating client
//     (If-None-Match with the ETag, answered 304).
// (B) all 5,000 agents assigned (~500 KB of JSON), plain and gzipped, each
//     against a raw node:http server serving the identical bytes (fetched
//     once from svc): bound by bytes, not by svc, so no target; the ratios
//     and svc's p99 are for the report.
//
// As in settings-throughput.ts: servers pinned to CPU 1, the load generator
// (this process) to CPU 0, 2 s warm-up + 5 s measured per run, four rounds
// whose order rotates, every response checked (no errors, only 200, or only
// 304 for the revalidating client). The load generator is lib/lean-load.ts,
// not autocannon: autocannon decodes every body into a JS string, so with
// 36 KB answers it measured itself (raw node:http serving svc's exact bytes
// reached only 44 % of hello in its hands, and gzipped bytes were slower
// still than plain ones).
import type { IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { freePort, removeHome, tempHome } from '../helpers/server.ts';
import { TEAM_COLUMNS_SQL, type TeamList } from '../../shared/teams/types.ts';
import { httpRequest, waitFor200 } from './lib/http.ts';
import { lowestCpuUs, medianOf, ratios, rounds, type Target } from './lib/load-rounds.ts';
import { pinToCpus, spawnNode, type Proc } from './lib/processes.ts';
import { RAW_HELLO, rawBytesServer } from './lib/raw-servers.ts';
import { seedTeams } from './lib/seed.ts';
import { fmt, median, pct } from './lib/stats.ts';
import { startSvc, type Svc } from './lib/svc.ts';
import type { Benchmark, BenchResult } from './lib/types.ts';

const SHAPE = { connections: 50, warmupS: 2, measureS: 5 };
const ROUNDS = 4;
const TEAMS = 50;
const AGENTS = 5000;
/** Scenario A: agents assigned per team (the others unassigned). */
const ASSIGNED_PER_TEAM_A = 5;
const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 20;

/** What a browser sends: the dashboard's own requests carry it. */
const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };

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

interface Served {
  /** The bytes as sent (gzipped for the browser request). */
  bytes: Buffer;
  etag: string;
  /** The representation headers svc sent (not Date, Connection, Keep-Alive). */
  headers: Record<string, string>;
}

const representationHeaders = (h: IncomingHttpHeaders): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const k of ['content-type', 'content-length', 'content-encoding', 'etag', 'cache-control', 'vary']) {
    const v = h[k];
    if (typeof v === 'string') out[k] = v;
  }
  return out;
};

/**
 * Fetches the list once plain and once as a browser asks for it: checks the
 * shape against the seed, that the gzip body is the same list, and that each
 * ETag revalidates to a 304.
 */
async function fetchList(port: number, assigned: number): Promise<{ plain: Served; gzip: Served }> {
  const get = async (headers: Record<string, string>): Promise<Served> => {
    const r = await httpRequest(port, '/api/teams', { headers, timeoutMs: 20_000 });
    if (r.status !== 200) throw new Error(`GET /api/teams: HTTP ${r.status}: ${r.body.slice(0, 300)}`);
    const etag = r.headers.etag;
    if (typeof etag !== 'string') throw new Error('GET /api/teams: no ETag');
    const revalidated = await httpRequest(port, '/api/teams', { headers: { ...headers, 'if-none-match': etag } });
    if (revalidated.status !== 304) throw new Error(`GET /api/teams with If-None-Match: HTTP ${revalidated.status}, expected 304`);
    return { bytes: r.bytes, etag, headers: representationHeaders(r.headers) };
  };
  const plain = await get({});
  const gzip = await get(BROWSER);
  if (gzip.headers['content-encoding'] !== 'gzip') throw new Error('GET /api/teams with Accept-Encoding: gzip: not gzipped');
  if (!gunzipSync(gzip.bytes).equals(plain.bytes)) throw new Error('GET /api/teams: the gzip body is not the plain body');
  const list = JSON.parse(plain.bytes.toString('utf8')) as TeamList;
  const counted = list.teams.reduce((n, t) => n + t.agentCount, 0);
  if (list.teams.length !== TEAMS || list.assignments.length !== assigned || counted !== assigned) {
    throw new Error(`GET /api/teams: ${list.teams.length} teams, ${list.assignments.length} assignments, agentCount sum ${counted}; seeded ${TEAMS} and ${assigned}`);
  }
  return { plain, gzip };
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

/**
 * Raw node:http servers serving svc's exact plain and gzip bytes, as load
 * targets; then every server pinned to CPU 1 and this process to CPU 0.
 */
async function sameBytesTargets(
  svc: Svc,
  plain: Served,
  gzip: Served,
  procs: Proc[],
): Promise<{ plainBytesT: Target; gzipBytesT: Target; pinned: boolean }> {
  const target = async (label: string, served: Served, name: string): Promise<Target> => {
    const { proc, port } = await rawBytesServer(svc.home, name, served.bytes, served.headers);
    procs.push(proc);
    return { label, url: `http://127.0.0.1:${port}/`, pid: proc.pid, runs: [] };
  };
  const plainBytesT = await target('raw node:http same body     ', plain, 'teams-plain');
  const gzipBytesT = await target('raw node:http same gzip body', gzip, 'teams-gzip');
  const pinned = pinToCpus(process.pid, '0') && [svc.proc, ...procs].every((p) => pinToCpus(p.pid, '1'));
  console.log(pinned ? '  pinned: servers on CPU 1, load generator on CPU 0' : '  taskset unavailable: running unpinned');
  return { plainBytesT, gzipBytesT, pinned };
}

async function stopAll(procs: Array<Proc | Svc | undefined>): Promise<void> {
  for (const p of procs) await p?.stop();
}

interface ScenarioA {
  /** Judged: raw hello's server CPU per request / svc's for a browser's request (lowest round each): per core. */
  perCore: number;
  /** The same request's req/s against raw hello (median per-round ratio). */
  ratio: number;
  plainPerCore: number;
  p99: number;
  gzipRps: number;
  /** svc gzip / raw node:http serving the same gzip bytes. */
  gzipBytesRatio: number;
  gzipBytesRps: number;
  plainRps: number;
  plainRatio: number;
  plainP99: number;
  plainBytesRatio: number;
  plainBytesRps: number;
  rawRps: number;
  naiveRps: number;
  revalRps: number;
  plainSize: number;
  gzipSize: number;
}

async function scenarioA(): Promise<ScenarioA> {
  console.log(`  (A) ${TEAMS} teams, ${fmt(AGENTS)} agents, ${ASSIGNED_PER_TEAM_A} per team assigned`);
  const { svc, assigned } = await seededSvc(ASSIGNED_PER_TEAM_A);
  const procs: Proc[] = [];
  let pinned = false;
  try {
    const { plain, gzip } = await fetchList(svc.port, assigned);
    const rawPort = await freePort();
    const raw = spawnNode(['-e', RAW_HELLO], { ...process.env, PORT: String(rawPort) });
    procs.push(raw);
    const naivePort = await freePort();
    const naive = spawnNode(['-e', NAIVE], { ...process.env, PORT: String(naivePort), DB_PATH: svc.dbPath });
    procs.push(naive);
    const same = await sameBytesTargets(svc, plain, gzip, procs);
    pinned = same.pinned;
    const { plainBytesT, gzipBytesT } = same;
    await waitFor200(rawPort, '/', raw);
    await waitFor200(naivePort, '/', naive);
    const naiveBody = (await httpRequest(naivePort, '/')).bytes;
    console.log(
      `  body ${fmt(plain.bytes.length / 1024, 1)} KB plain, ${fmt(gzip.bytes.length / 1024, 1)} KB gzipped; ` +
        `naive route's body ${naiveBody.equals(plain.bytes) ? 'identical' : 'DIFFERENT'}`,
    );

    const svcUrl = `http://127.0.0.1:${svc.port}/api/teams`;
    const rawT: Target = { label: 'raw node:http hello         ', url: `http://127.0.0.1:${rawPort}/`, pid: raw.pid, runs: [] };
    const gzipT: Target = { label: 'GET /api/teams (browser)    ', url: svcUrl, pid: svc.proc.pid, runs: [], headers: BROWSER };
    const plainT: Target = { label: 'GET /api/teams (plain)      ', url: svcUrl, pid: svc.proc.pid, runs: [] };
    const naiveT: Target = { label: 'naive route (no cache)      ', url: `http://127.0.0.1:${naivePort}/`, pid: naive.pid, runs: [] };
    const revalT: Target = {
      label: 'svc If-None-Match→304       ',
      url: svcUrl,
      pid: svc.proc.pid,
      runs: [],
      headers: { ...BROWSER, 'if-none-match': gzip.etag },
      expect304: true,
    };
    await rounds([rawT, gzipT, gzipBytesT, plainT, plainBytesT, naiveT, revalT], ROUNDS, SHAPE);

    const r = ratios(gzipT.runs, rawT.runs);
    const out: ScenarioA = {
      perCore: lowestCpuUs(rawT) / lowestCpuUs(gzipT),
      plainPerCore: lowestCpuUs(rawT) / lowestCpuUs(plainT),
      ratio: median(r),
      p99: medianOf(gzipT.runs, (x) => x.p99),
      gzipRps: medianOf(gzipT.runs, (x) => x.rps),
      gzipBytesRatio: median(ratios(gzipT.runs, gzipBytesT.runs)),
      gzipBytesRps: medianOf(gzipBytesT.runs, (x) => x.rps),
      plainRps: medianOf(plainT.runs, (x) => x.rps),
      plainRatio: median(ratios(plainT.runs, rawT.runs)),
      plainP99: medianOf(plainT.runs, (x) => x.p99),
      plainBytesRatio: median(ratios(plainT.runs, plainBytesT.runs)),
      plainBytesRps: medianOf(plainBytesT.runs, (x) => x.rps),
      rawRps: medianOf(rawT.runs, (x) => x.rps),
      naiveRps: medianOf(naiveT.runs, (x) => x.rps),
      revalRps: medianOf(revalT.runs, (x) => x.rps),
      plainSize: plain.bytes.length,
      gzipSize: gzip.bytes.length,
    };
    const naiveRatio = median(ratios(naiveT.runs, rawT.runs));
    const revalRatio = median(ratios(revalT.runs, rawT.runs));
    const plainBytesVsHello = median(ratios(plainBytesT.runs, rawT.runs));
    console.log(`  (A) per-round req/s ratios svc (browser)/raw hello: ${r.map((x) => pct(x)).join(', ')}`);
    console.log(`  (A) svc (browser) p99 per round: ${gzipT.runs.map((x) => `${x.p99} ms`).join(', ')}`);
    console.log(
      `  (A) medians: raw hello ${fmt(out.rawRps)} req/s; svc (browser) ${fmt(out.gzipRps)} req/s (${pct(out.ratio)} of raw hello, ` +
        `${pct(out.gzipBytesRatio)} of raw same gzip body at ${fmt(out.gzipBytesRps)}; p99 ${out.p99} ms); ` +
        `svc (plain) ${fmt(out.plainRps)} req/s (${pct(out.plainRatio)} of raw hello, ${pct(out.plainBytesRatio)} of raw same body at ` +
        `${fmt(out.plainBytesRps)}, which is itself ${pct(plainBytesVsHello)} of raw hello; p99 ${out.plainP99} ms); ` +
        `naive ${fmt(out.naiveRps)} req/s (${pct(naiveRatio)} of raw; svc plain = ${fmt(out.plainRps / out.naiveRps, 1)}× naive), ` +
        `revalidating 304 ${fmt(out.revalRps)} req/s (${pct(revalRatio)} of raw)`,
    );
    console.log(
      `  (A) server CPU per request (lowest round): raw hello ${fmt(lowestCpuUs(rawT), 1)} µs, svc browser ${fmt(lowestCpuUs(gzipT), 1)} µs, ` +
        `raw same gzip body ${fmt(lowestCpuUs(gzipBytesT), 1)} µs, svc plain ${fmt(lowestCpuUs(plainT), 1)} µs, raw same body ${fmt(lowestCpuUs(plainBytesT), 1)} µs, ` +
        `naive ${fmt(lowestCpuUs(naiveT), 1)} µs, svc 304 ${fmt(lowestCpuUs(revalT), 1)} µs`,
    );
    return out;
  } finally {
    if (pinned) pinToCpus(process.pid, '0-1');
    await stopAll([...procs, svc]);
  }
}

interface ScenarioB {
  plainRatio: number;
  plainP99: number;
  plainRps: number;
  gzipRatio: number;
  gzipP99: number;
  gzipRps: number;
  plainSize: number;
  gzipSize: number;
}

async function scenarioB(): Promise<ScenarioB> {
  console.log(`  (B) ${TEAMS} teams, ${fmt(AGENTS)} agents, all assigned`);
  const { svc, assigned } = await seededSvc(AGENTS / TEAMS);
  const procs: Proc[] = [];
  let pinned = false;
  try {
    const { plain, gzip } = await fetchList(svc.port, assigned);
    const same = await sameBytesTargets(svc, plain, gzip, procs);
    pinned = same.pinned;
    const { plainBytesT, gzipBytesT } = same;
    console.log(`  body ${fmt(plain.bytes.length / 1024, 1)} KB plain, ${fmt(gzip.bytes.length / 1024, 1)} KB gzipped (${fmt(assigned)} assignments), served by both`);

    const svcUrl = `http://127.0.0.1:${svc.port}/api/teams`;
    const plainT: Target = { label: 'GET /api/teams (plain)      ', url: svcUrl, pid: svc.proc.pid, runs: [] };
    const gzipT: Target = { label: 'GET /api/teams (browser)    ', url: svcUrl, pid: svc.proc.pid, runs: [], headers: BROWSER };
    await rounds([plainBytesT, plainT, gzipBytesT, gzipT], ROUNDS, SHAPE);

    const out: ScenarioB = {
      plainRatio: median(ratios(plainT.runs, plainBytesT.runs)),
      plainP99: medianOf(plainT.runs, (x) => x.p99),
      plainRps: medianOf(plainT.runs, (x) => x.rps),
      gzipRatio: median(ratios(gzipT.runs, gzipBytesT.runs)),
      gzipP99: medianOf(gzipT.runs, (x) => x.p99),
      gzipRps: medianOf(gzipT.runs, (x) => x.rps),
      plainSize: plain.bytes.length,
      gzipSize: gzip.bytes.length,
    };
    console.log(
      `  (B) medians: svc plain ${fmt(out.plainRps)} req/s (${pct(out.plainRatio)} of raw same bytes, p99 ${out.plainP99} ms), ` +
        `svc browser ${fmt(out.gzipRps)} req/s (${pct(out.gzipRatio)} of raw same gzip bytes, p99 ${out.gzipP99} ms)`,
    );
    return out;
  } finally {
    if (pinned) pinToCpus(process.pid, '0-1');
    await stopAll([...procs, svc]);
  }
}

async function run(): Promise<BenchResult> {
  const a = await scenarioA();
  const b = await scenarioB();
  const ratioOk = a.perCore >= TARGET_RATIO;
  const p99Ok = a.p99 < TARGET_P99_MS;
  const kb = (n: number) => `${fmt(n / 1024)} KB`;
  console.log(
    `  ${ratioOk ? 'PASS' : 'FAIL'}: (A) GET /api/teams as a browser asks for it at ${pct(a.perCore)} of raw node:http hello per core ` +
      `(target ≥ ${pct(TARGET_RATIO, 0)}); req/s ratio ${pct(a.ratio)}`,
  );
  console.log(`  ${p99Ok ? 'PASS' : 'FAIL'}: (A) GET /api/teams as a browser asks for it: p99 ${a.p99} ms (target < ${TARGET_P99_MS} ms)`);
  console.log(
    `  INFO: (A) without Accept-Encoding (${kb(a.plainSize)}): ${pct(a.plainPerCore)} of raw hello per core, ${pct(a.plainRatio)} of its req/s, ${pct(a.plainBytesRatio)} of raw node:http serving the same bytes, p99 ${a.plainP99} ms`,
  );
  console.log(
    `  INFO: (B) ${kb(b.plainSize)} plain: svc at ${pct(b.plainRatio)} of raw same bytes (p99 ${b.plainP99} ms); ` +
      `${kb(b.gzipSize)} gzipped: ${pct(b.gzipRatio)} of raw same bytes (p99 ${b.gzipP99} ms) (no target)`,
  );
  return {
    name: 'teams-list',
    figures:
      `(A ${kb(a.plainSize)}, ${kb(a.gzipSize)} gzipped) svc browser ${fmt(a.gzipRps)} req/s p99 ${a.p99} ms, svc plain ${fmt(a.plainRps)} p99 ${a.plainP99} ms, ` +
      `raw hello ${fmt(a.rawRps)}, raw same gzip body ${fmt(a.gzipBytesRps)}, raw same body ${fmt(a.plainBytesRps)}, naive ${fmt(a.naiveRps)}, 304 ${fmt(a.revalRps)}; ` +
      `(B ${kb(b.plainSize)}) svc plain ${fmt(b.plainRps)} req/s p99 ${b.plainP99} ms, browser ${fmt(b.gzipRps)} req/s p99 ${b.gzipP99} ms`,
    ratio:
      `(A) browser ${pct(a.perCore)} of raw hello per core, ${pct(a.ratio)} of its req/s (${pct(a.gzipBytesRatio)} of raw same bytes); ` +
      `plain ${pct(a.plainPerCore)} per core, ${pct(a.plainRatio)} of req/s (${pct(a.plainBytesRatio)} of raw same bytes); ` +
      `(B) ${pct(b.plainRatio)} plain, ${pct(b.gzipRatio)} gzip of raw same bytes ` +
      `(median per-round req/s ratios, ${ROUNDS} rounds)`,
    target: `(A) browser request ≥ ${pct(TARGET_RATIO, 0)} of raw hello per core and p99 < ${TARGET_P99_MS} ms`,
    pass: ratioOk && p99Ok,
  };
}

export const teamsList: Benchmark = { name: 'teams-list', run };
