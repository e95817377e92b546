// svc's model endpoint (issues 22 and 31): what standing between the gateway
// and the provider costs a model call, against a bare node:http pass-through
// proxy (fixtures/bare-proxy.ts) on the same fake provider
// (fixtures/model-upstream.ts) in the same run, with every svc call reserved
// under a cap budget and settled (model-endpoint-setup.ts). Four parts:
//   1. added latency at concurrency 1 (model-endpoint-latency.ts): a
//      non-streamed call, the time to first token, each chunk; svc's added
//      p99 against the bare proxy's, with svc's own `x-svc-overhead-ms`
//      beside it
//   2. STREAMS concurrent streams (model-endpoint-streams.ts): every frame,
//      in order, through both; svc's CPU and RSS
//   3. sustained calls per second on a 20 ms provider (model-endpoint-throughput.ts)
//   4. svc's database after it all: no call left open, no reservation open
// Targets (the issue's): svc − bare at p99 ≤ 0.5 ms per call, ≤ 1 ms to the
// first token, ≤ 0.2 ms per chunk; no lost or reordered frame; calls/s ≥
// 50 % of the bare proxy's.
import { fmt, pct } from './lib/stats.ts';
import type { Benchmark, BenchResult } from './lib/types.ts';
import { latencyReport, measureLatency, overBare, TARGET_CALL_MS, TARGET_CHUNK_MS, TARGET_TTFT_MS } from './model-endpoint-latency.ts';
import { readLedger, startPaths } from './model-endpoint-setup.ts';
import { measureStreams, STREAMS, streamsReport } from './model-endpoint-streams.ts';
import { measureThroughput, throughputReport } from './model-endpoint-throughput.ts';

const TARGET_CPS_RATIO = 0.5;

async function run(): Promise<BenchResult> {
  const paths = await startPaths();
  console.log(paths.pinned ? '  pinned: bare proxy and svc on CPU 1, client and fake provider on CPU 0' : '  unpinned (BENCH_PIN=1 pins)');
  try {
    const lat = await measureLatency(paths);
    for (const line of latencyReport(lat)) console.log(`  ${line}`);
    const bareStreams = await measureStreams(paths, 'bare', paths.bareProc.pid);
    console.log(`  ${streamsReport(bareStreams)}`);
    const svcStreams = await measureStreams(paths, 'svc', paths.svcProc.proc.pid);
    console.log(`  ${streamsReport(svcStreams)}`);
    const tp = await measureThroughput(paths);
    console.log(`  ${throughputReport(tp)}`);
    const ledger = await readLedger(paths.svcProc.dbPath);
    // svc's warnings (a provider it could not reach, and why), once its logger has flushed them.
    const warned = paths.svcProc.proc.output().split('\n').filter((l) => l.includes('model endpoint'));
    if (warned.length > 0) console.log(`  svc warned ${warned.length} times about model calls; the first: ${warned[0]}`);
    const notOk = Object.entries(ledger.outcomes).filter(([o]) => o !== 'ok');
    const ledgerLine = `svc's ledger: ${ledger.outcomes.ok ?? 0} calls settled ok${notOk.length ? `, ${notOk.map(([o, n]) => `${n} ${o}`).join(', ')}` : ''}; ${ledger.openReservations} reservations open, global budget reserved $${fmt(ledger.reservedMicroUsd / 1e6, 6)}, spent $${fmt(ledger.spentMicroUsd / 1e6, 4)}`;
    console.log(`  ${ledgerLine}`);
    const ledgerOk = (ledger.outcomes.open ?? 0) === 0 && ledger.openReservations === 0 && ledger.reservedMicroUsd === 0 && (ledger.outcomes.ok ?? 0) > 0;

    const d = overBare(lat);
    const d50 = overBare(lat, 'p50');
    const svcCps = tp.svc.map((r) => r.cps).sort((a, b) => a - b)[Math.floor(tp.svc.length / 2)] as number;
    const bareCps = tp.bare.map((r) => r.cps).sort((a, b) => a - b)[Math.floor(tp.bare.length / 2)] as number;
    const streamsOk = svcStreams.completed === STREAMS && svcStreams.badFrames === 0;
    const heldOk = svcStreams.peakOpenUpstream === STREAMS;
    const svcFailed = tp.svc.reduce((n, r) => n + r.failed, 0);
    const bareFailed = tp.bare.reduce((n, r) => n + r.failed, 0);
    const checks: Array<[boolean, string]> = [
      [d.call <= TARGET_CALL_MS, `non-streamed call: svc p99 − bare p99 = ${fmt(d.call, 2)} ms (target ≤ ${TARGET_CALL_MS} ms)`],
      [d.ttft <= TARGET_TTFT_MS, `time to first token: svc p99 − bare p99 = ${fmt(d.ttft, 2)} ms (target ≤ ${TARGET_TTFT_MS} ms)`],
      [d.chunk <= TARGET_CHUNK_MS, `per chunk: svc p99 − bare p99 = ${fmt(d.chunk, 3)} ms (target ≤ ${TARGET_CHUNK_MS} ms)`],
      [streamsOk, `${STREAMS} streams through svc: ${svcStreams.completed} whole, ${svcStreams.badFrames} lost or reordered frames (target: all whole, 0)`],
      [heldOk, `${STREAMS} streams through svc held open at once: the provider saw ${svcStreams.peakOpenUpstream} (bare proxy ${bareStreams.peakOpenUpstream})`],
      [svcFailed === 0, `calls/s phase: ${svcFailed} svc calls failed${svcFailed > 0 ? ` (first: ${tp.svc.find((r) => r.firstError)?.firstError})` : ''} (bare proxy ${bareFailed})`],
      [tp.ratio >= TARGET_CPS_RATIO, `calls/s: svc ${pct(tp.ratio)} of the bare proxy (target ≥ ${pct(TARGET_CPS_RATIO, 0)})`],
      [ledgerOk, `svc's ledger: every call closed (${Object.entries(ledger.outcomes).map(([o, n]) => `${n} ${o}`).join(', ')}), no reservation left open, nothing still reserved`],
    ];
    for (const [ok, text] of checks) console.log(`  ${ok ? 'PASS' : 'FAIL'}: ${text}`);

    const o = lat.of;
    const header = lat.overhead.missing === lat.overhead.answers ? 'x-svc-overhead-ms absent' : `x-svc-overhead-ms p50 ${fmt(lat.overhead.call.p50, 3)} / p99 ${fmt(lat.overhead.call.p99, 3)} ms`;
    return {
      name: 'model-endpoint',
      figures:
        `added p99 (vs direct) svc / bare: call ${fmt(o.svc.call.p99 - o.direct.call.p99, 2)} / ${fmt(o.bare.call.p99 - o.direct.call.p99, 2)} ms (${header}), ` +
        `TTFT ${fmt(o.svc.ttft.p99 - o.direct.ttft.p99, 2)} / ${fmt(o.bare.ttft.p99 - o.direct.ttft.p99, 2)} ms, chunk ${fmt(o.svc.chunk.p99 - o.direct.chunk.p99, 3)} / ${fmt(o.bare.chunk.p99 - o.direct.chunk.p99, 3)} ms; ` +
        `${STREAMS} streams: ${svcStreams.completed} whole, ${svcStreams.badFrames} bad frames, ${svcStreams.peakOpenUpstream} open at once, svc CPU ${fmt(svcStreams.cpuPercent)} % (bare ${fmt(bareStreams.cpuPercent)} %), ` +
        `RSS ${fmt(svcStreams.idleRssKb / 1024)} → ${fmt(svcStreams.peakRssKb / 1024)} MB; ${fmt(svcCps)} calls/s (bare ${fmt(bareCps)})`,
      ratio: `svc − bare p99 (p50): call ${fmt(d.call, 2)} (${fmt(d50.call, 2)}) ms, TTFT ${fmt(d.ttft, 2)} (${fmt(d50.ttft, 2)}) ms, chunk ${fmt(d.chunk, 3)} (${fmt(d50.chunk, 3)}) ms; calls/s ${pct(tp.ratio)} of bare (per core ${pct(tp.perCore)})${paths.pinned ? ', pinned' : ', unpinned'}`,
      target: `svc − bare p99 ≤ ${TARGET_CALL_MS} / ${TARGET_TTFT_MS} / ${TARGET_CHUNK_MS} ms; 0 lost frames, all open at once; ≥ ${pct(TARGET_CPS_RATIO, 0)} calls/s`,
      pass: checks.every(([ok]) => ok),
    };
  } catch (err) {
    // svc logs why (e.g. the provider's connect error) at warn: show it beside the crash.
    console.error(`  svc's last log lines:\n${paths.svcProc.proc.output().slice(-3000)}`);
    throw err;
  } finally {
    await paths.stop();
  }
}

export const modelEndpoint: Benchmark = { name: 'model-endpoint', run };
