// Team chat (issue 17) against an instrumented stub gateway
// (fixtures/stub-gateway.ts: a measuring instrument, not a test double; the
// tests use the real gateway), svc started as the other benchmarks start it
// with its settings pointing at the stub.
// (1) Latency: svc's added latency (a) from POST /api/teams/:id/chat to
//     the gateway receiving chat.send and (b) from a gateway delta to its
//     `event: delta` frame at a stream client, p50/p99, against a loopback
//     WebSocket echo (one round trip, frames of the same sizes) measured in
//     the same run. Target: p99 added < 5 ms, each.
// (2) Fan-out: 20 teams chatting at once, 50 stream clients each: every row
//     and delta delivered to every client, in order; svc CPU and RSS.
import { fmt, max, percentile } from './lib/stats.ts';
import type { Benchmark, BenchResult } from './lib/types.ts';
import { startEcho, type Echo } from './fixtures/team-chat-echo.ts';
import { measureFanout, type FanoutResult } from './fixtures/team-chat-fanout.ts';
import { measureLatency, type LatencySamples } from './fixtures/team-chat-latency.ts';
import { createTeam, startWithStub } from './fixtures/team-chat-setup.ts';

const LATENCY = { rounds: 4, messagesPerRound: 200, warmupMessages: 20, deltasPerRun: 5, chunk: 32 };
const FANOUT = { teams: 20, clientsPerTeam: 50, agentsPerTeam: 3, messages: 10, deltas: 20, everyMs: 50, chunk: 32 };
const TARGET_ADDED_P99_MS = 5;

const line = (ok: boolean, text: string) => console.log(`  ${ok ? 'PASS' : 'FAIL'}: ${text}`);
const ms = (v: number) => `${fmt(v, 2)} ms`;

interface Added {
  p50: number;
  p99: number;
  addedP50: number;
  addedP99: number;
}

function added(svc: number[], echo: number[]): Added {
  const p50 = percentile(svc, 50);
  const p99 = percentile(svc, 99);
  return { p50, p99, addedP50: p50 - percentile(echo, 50), addedP99: p99 - percentile(echo, 99) };
}

function printLatency(s: LatencySamples): { send: Added; delta: Added } {
  const send = added(s.send, s.echoSend);
  const delta = added(s.delta, s.echoDelta);
  console.log(`  latency (${s.send.length} messages, ${s.delta.length} deltas; echo frames ${fmt(s.sendBytes)} B and ${s.deltaBytes.map((b) => fmt(b)).join('/')} B):`);
  console.log(`    (a) POST -> chat.send at the gateway: p50 ${ms(send.p50)}, p99 ${ms(send.p99)}, max ${ms(max(s.send))}`);
  console.log(`        echo round trip (${fmt(s.sendBytes)} B): p50 ${ms(percentile(s.echoSend, 50))}, p99 ${ms(percentile(s.echoSend, 99))}`);
  console.log(`        added: p50 ${ms(send.addedP50)}, p99 ${ms(send.addedP99)}; POST's 202 round trip p50 ${ms(percentile(s.post, 50))}, p99 ${ms(percentile(s.post, 99))}`);
  console.log(`    (b) gateway delta -> SSE frame: p50 ${ms(delta.p50)}, p99 ${ms(delta.p99)}, max ${ms(max(s.delta))}`);
  console.log(`        echo round trip: p50 ${ms(percentile(s.echoDelta, 50))}, p99 ${ms(percentile(s.echoDelta, 99))}`);
  console.log(`        added: p50 ${ms(delta.addedP50)}, p99 ${ms(delta.addedP99)}`);
  return { send, delta };
}

function printFanout(f: FanoutResult): void {
  const t = f.totals;
  const streams = FANOUT.teams * FANOUT.clientsPerTeam;
  console.log(`  fan-out (${FANOUT.teams} teams × ${FANOUT.clientsPerTeam} clients, ${f.runs} runs of ${FANOUT.deltas} deltas ${FANOUT.everyMs} ms apart, ${fmt(f.wallMs / 1000, 1)} s):`);
  console.log(`    clients with every row and delta in order: ${f.complete}/${f.clients}; drained ${f.drained}`);
  console.log(`    rows ${fmt(t.rows)}/${fmt(t.rowsExpected)}, deltas ${fmt(t.deltas)}/${fmt(t.deltasExpected)}; out of order: rows ${t.rowsOutOfOrder}, deltas ${t.deltasOutOfOrder}; late deltas ${t.lateDeltas}; closed ${t.closed}`);
  console.log(`    svc CPU ${fmt(f.cpuPercent, 1)} % of one core over the window`);
  console.log(
    `    svc RSS ${fmt(f.rssBeforeKb / 1024, 1)} MB before the streams, ${fmt(f.rssOpenKb / 1024, 1)} MB with ${streams} open, ` +
      `${fmt(f.rssMedianKb / 1024, 1)} MB median / ${fmt(f.rssPeakKb / 1024, 1)} MB peak while chatting`,
  );
  console.log(`    delta latency at ${FANOUT.teams} sampled clients (${f.deltaMs.length} samples): p50 ${ms(percentile(f.deltaMs, 50))}, p99 ${ms(percentile(f.deltaMs, 99))}, max ${ms(max(f.deltaMs))}`);
}

async function run(): Promise<BenchResult> {
  const { stub, svc } = await startWithStub();
  let echo: Echo | null = null;
  try {
    console.log(`  server pid ${svc.proc.pid}, stub gateway ${stub.url}`);
    const latencyTeam = await createTeam(svc.port, 'Latency', FANOUT.agentsPerTeam);
    const teams = [];
    for (let i = 0; i < FANOUT.teams; i++) teams.push(await createTeam(svc.port, `Fanout ${String(i + 1).padStart(2, '0')}`, FANOUT.agentsPerTeam));
    echo = await startEcho();

    const lat = printLatency(await measureLatency(svc, stub, latencyTeam, echo, LATENCY));
    const fan = await measureFanout(svc, stub, teams, FANOUT);
    printFanout(fan);
    const stats = stub.stats();
    const unknown = Object.entries(stats.unknown).map(([m, n]) => `${m} ×${n}`);
    console.log(
      `  stub: ${stats.connects} connects (${stats.refusedConnects} refused), ${stats.sends} sends, ${stats.deltas} deltas, ${stats.finals} finals, ` +
        `${stats.historyCalls} history reads, ${stats.aborts} aborts; methods not served: ${unknown.length > 0 ? unknown.join(', ') : 'none'}`,
    );

    const ok = {
      send: lat.send.addedP99 < TARGET_ADDED_P99_MS,
      delta: lat.delta.addedP99 < TARGET_ADDED_P99_MS,
      delivered: fan.complete === fan.clients && fan.clients === FANOUT.teams * FANOUT.clientsPerTeam,
    };
    line(ok.send, `(a) POST -> chat.send p99 added ${ms(lat.send.addedP99)} (target < ${TARGET_ADDED_P99_MS} ms)`);
    line(ok.delta, `(b) delta -> SSE frame p99 added ${ms(lat.delta.addedP99)} (target < ${TARGET_ADDED_P99_MS} ms)`);
    line(ok.delivered, `every row and delta to every client in order (${fan.complete}/${fan.clients} clients)`);
    const pass = Object.values(ok).every(Boolean);
    const failed = Object.entries(ok).filter(([, v]) => !v).map(([k]) => k);
    line(pass, pass ? 'team-chat: all targets met' : `team-chat: missed ${failed.join(', ')}`);
    return {
      name: 'team-chat',
      figures:
        `send p50/p99 ${fmt(lat.send.p50, 2)}/${fmt(lat.send.p99, 2)} ms, delta ${fmt(lat.delta.p50, 2)}/${fmt(lat.delta.p99, 2)} ms; ` +
        `fan-out ${fan.complete}/${fan.clients} complete, CPU ${fmt(fan.cpuPercent, 1)} %, RSS ${fmt(fan.rssMedianKb / 1024, 1)} MB`,
      ratio: `added p99 send ${fmt(lat.send.addedP99, 2)} ms, delta ${fmt(lat.delta.addedP99, 2)} ms over the echo`,
      target: 'p99 added < 5 ms each; all delivered in order',
      pass,
    };
  } finally {
    await echo?.close();
    await svc.stop();
    await stub.close();
  }
}

export const teamChat: Benchmark = { name: 'team-chat', run };
