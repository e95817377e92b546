// STREAMS concurrent streamed calls, all opened at once, through the bare
// proxy and then through svc (spread over its AGENTS agents, every call
// reserved under the cap budget and settled): each stream's chunks are
// numbered and the client checks it got every one, in order, then the
// usage chunk and [DONE]. The proxy's CPU (% of one core over the window)
// and RSS (settled before, peak during) are read from /proc; the fake
// provider's peak of streams open at once says whether the proxy held them
// all concurrently or queued some.
import { Agent } from 'node:http';
import { call, type Target } from './model-endpoint-client.ts';
import { MODEL, type Paths } from './model-endpoint-setup.ts';
import { measure, settledRssKb } from './lib/proc.ts';
import { fmt, max, percentile } from './lib/stats.ts';

export const STREAMS = 512;
const CHUNKS = 40;
const GAP_MS = 50;

export interface StreamsFigures {
  label: string;
  streams: number;
  completed: number;
  failed: number;
  /** Lost, repeated or reordered frames over every stream. */
  badFrames: number;
  peakOpenUpstream: number;
  ttft: { p50: number; p99: number };
  cpuPercent: number;
  wallMs: number;
  idleRssKb: number;
  peakRssKb: number;
  firstError: string | null;
}

export async function measureStreams(paths: Paths, via: 'bare' | 'svc', pid: number): Promise<StreamsFigures> {
  const targets: Target[] = via === 'bare' ? [paths.bare] : paths.svc;
  const agent = new Agent({ keepAlive: true });
  paths.up.stamp = false;
  paths.up.peakOpen = 0;
  const idleRssKb = await settledRssKb(pid);
  const window = measure(pid, 100);
  let failed = 0;
  let firstError: string | null = null;
  const results = await Promise.all(
    Array.from({ length: STREAMS }, (_, k) =>
      call(agent, targets[k % targets.length] as Target, { id: `m-${via}-${k}`, chunks: CHUNKS, gapMs: GAP_MS, delayMs: 0 }, MODEL, true).catch((err: unknown) => {
        failed++;
        firstError ??= err instanceof Error ? err.message : String(err);
        return null;
      }),
    ),
  );
  const load = window.stop();
  agent.destroy();
  const done = results.filter((r) => r !== null);
  const ttfts = done.map((r) => r.ttftMs);
  return {
    label: via,
    streams: STREAMS,
    completed: done.length,
    failed,
    badFrames: done.reduce((n, r) => n + r.badFrames, 0),
    peakOpenUpstream: paths.up.peakOpen,
    ttft: { p50: percentile(ttfts, 50), p99: percentile(ttfts, 99) },
    cpuPercent: load.cpuPercent,
    wallMs: load.wallMs,
    idleRssKb,
    peakRssKb: Math.max(idleRssKb, max(load.rssKb)),
    firstError,
  };
}

export function streamsReport(s: StreamsFigures): string {
  return (
    `${s.streams} streams via ${s.label} (${CHUNKS} chunks ${GAP_MS} ms apart): ${s.completed} whole, ${s.failed} failed${s.firstError ? ` (${s.firstError})` : ''}, ` +
    `${s.badFrames} lost/reordered frames; provider saw ${s.peakOpenUpstream} open at once; TTFT p50 ${fmt(s.ttft.p50, 1)} / p99 ${fmt(s.ttft.p99, 1)} ms; ` +
    `CPU ${fmt(s.cpuPercent, 1)} % of a core over ${fmt(s.wallMs)} ms; RSS ${fmt(s.idleRssKb / 1024, 1)} → peak ${fmt(s.peakRssKb / 1024, 1)} MB`
  );
}
