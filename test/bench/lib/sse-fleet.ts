// The fan-out benchmark's 1,000 SSE clients: most of them count frames in a
// forked child (fixtures/sse-clients.ts), a sample also parses every frame for
// its delivery latency here in the bench process, whose event loop stays
// nearly idle so that the arrival times it stamps are accurate. The sampled
// clients are opened interleaved with the others (in groups), so that they
// sit all along the server's fan-out order, not only at its end.
import { fork } from 'node:child_process';
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../../helpers/server.ts';
import { ask, nextMessage } from './ipc.ts';
import { track, type Proc } from './processes.ts';
import { openClients, type SseCounter } from './sse-client.ts';
import { sleep } from './stats.ts';

const GROUPS = 10;
const CLIENTS_FIXTURE = fileURLToPath(new URL('../fixtures/sse-clients.ts', import.meta.url));

export interface FleetSnapshot {
  counts: number[];
  maxIds: number[];
  dups: number;
  closed: number;
}

export interface Fleet {
  readonly size: number;
  /** The process holding the counting clients (for its CPU figure). */
  readonly counters: Proc;
  snapshot(): Promise<FleetSnapshot>;
  /** Latencies (ms) the sampled clients recorded since the last call. */
  takeLatencies(): number[];
  /** Resolves once every client has seen `seq`, or false after `timeoutMs`. */
  drained(seq: number, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export async function openFleet(port: number, since: number, total: number, sampled: number): Promise<Fleet> {
  const child = fork(CLIENTS_FIXTURE, [String(port), String(since)], {
    cwd: REPO_ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const counters = track(child);
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const samplers: SseCounter[] = [];
  const close = async () => {
    for (const c of samplers) c.close();
    agent.destroy();
    if (!counters.hasExited() && child.connected) child.send({ type: 'close' });
    await Promise.race([counters.exited, sleep(5000)]);
    await counters.stop();
  };
  try {
    await nextMessage(child, 'ready', 60_000);
    const groups = Math.max(1, Math.min(GROUPS, sampled));
    for (let g = 0; g < groups; g++) {
      const counting = Math.floor(((total - sampled) * (g + 1)) / groups) - Math.floor(((total - sampled) * g) / groups);
      await ask(child, { type: 'open', n: counting }, 'opened', 60_000);
      const sampling = Math.floor((sampled * (g + 1)) / groups) - Math.floor((sampled * g) / groups);
      samplers.push(...(await openClients(sampling, { port, since, agent, sample: true })));
    }
  } catch (err) {
    await close();
    throw err;
  }
  const snapshot = async (): Promise<FleetSnapshot> => {
    const s = await ask<FleetSnapshot & { type: string }>(child, { type: 'snapshot' }, 'snapshot');
    return {
      counts: [...s.counts, ...samplers.map((c) => c.count)],
      maxIds: [...s.maxIds, ...samplers.map((c) => c.maxId)],
      dups: s.dups + samplers.reduce((n, c) => n + c.dups, 0),
      closed: s.closed + samplers.filter((c) => c.closed).length,
    };
  };
  return {
    size: total,
    counters,
    snapshot,
    takeLatencies: () => samplers.flatMap((c) => c.takeLatencies()),
    async drained(seq, timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const s = await snapshot();
        if (s.maxIds.every((m) => m >= seq)) return true;
        if (performance.now() > deadline) return false;
        await sleep(100);
      }
    },
    close,
  };
}
