// `npm run bench`: builds once (tsc + ui), then runs each benchmark in
// sequence against the production build and prints a summary table.
// Usage: node --import tsx test/bench/run.ts [--no-build] [name-filter ...]
// Exits 0 when a target is missed (the figures are for the report) and 1
// only when a benchmark crashed or the build failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { REPO_ROOT } from '../helpers/server.ts';
import { boardClaim } from './board-claim.ts';
import { boot } from './boot.ts';
import { budgets } from './budgets.ts';
import { gatewayWiring } from './gateway-wiring.ts';
import { fmt } from './lib/stats.ts';
import { mcp } from './mcp.ts';
import { modelEndpoint } from './model-endpoint.ts';
import { obsIngest } from './obs-ingest.ts';
import { obsReads } from './obs-reads.ts';
import { DIST_ENTRY } from './lib/svc.ts';
import type { Benchmark, BenchResult } from './lib/types.ts';
import { settingsThroughput } from './settings-throughput.ts';
import { skillScan } from './skill-scan.ts';
import { sseFanout } from './sse-fanout.ts';
import { teamChat } from './team-chat.ts';
import { teamsList } from './teams-list.ts';
import { uiBench } from './ui.ts';

const ALL: Benchmark[] = [settingsThroughput, teamsList, sseFanout, boardClaim, boot, obsIngest, obsReads, skillScan, mcp, teamChat, uiBench, budgets, modelEndpoint, gatewayWiring];

interface Row extends Partial<BenchResult> {
  name: string;
  seconds: number;
  /** 1-minute load average when the benchmark started (the machine is shared: context for the figures). */
  load: string;
  crashed?: string;
}

const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?';

function table(rows: Row[]): string {
  const head = ['benchmark', 'result', 'figures', 'ratio vs baseline', 'target', 'time', 'load'];
  const cells = rows.map((r) => [
    r.name,
    r.crashed ? 'CRASH' : r.pass ? 'PASS' : 'FAIL',
    r.crashed ? r.crashed : (r.figures ?? ''),
    r.ratio ?? '',
    r.target ?? '',
    `${fmt(r.seconds)} s`,
    r.load,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const fmtRow = (c: string[]) => `| ${c.map((x, i) => x.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [fmtRow(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(fmtRow)].join('\n');
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const filters = args.filter((a) => !a.startsWith('--'));
  const selected = ALL.filter((b) => filters.length === 0 || filters.some((f) => b.name.includes(f)));
  if (selected.length === 0) {
    console.error(`no benchmark matches ${filters.join(' ')}; known: ${ALL.map((b) => b.name).join(', ')}`);
    return 1;
  }
  if (!args.includes('--no-build')) {
    console.log('bench: npm run build');
    const built = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
    if (built.status !== 0) {
      console.error(`bench: the build failed (exit ${built.status})`);
      return 1;
    }
  }
  if (!existsSync(DIST_ENTRY)) {
    console.error(`bench: ${DIST_ENTRY} is missing; run without --no-build`);
    return 1;
  }

  const rows: Row[] = [];
  for (const b of selected) {
    const load = loadAverage();
    console.log(`\n== ${b.name} (load average ${load} on ${availableParallelism()} cores)`);
    const t0 = performance.now();
    try {
      const r = await b.run();
      rows.push({ ...r, seconds: (performance.now() - t0) / 1000, load });
    } catch (err) {
      console.error(`  CRASH: ${b.name}:`, err);
      const crashed = err instanceof Error ? (err.message.split('\n')[0] ?? err.name) : String(err);
      rows.push({ name: b.name, seconds: (performance.now() - t0) / 1000, load, crashed });
    }
  }
  console.log('\n== summary');
  console.log(table(rows));
  const crashed = rows.filter((r) => r.crashed).length;
  const failed = rows.filter((r) => !r.crashed && !r.pass).length;
  console.log(`\n${rows.length} benchmarks: ${rows.length - crashed - failed} passed, ${failed} missed a target, ${crashed} crashed`);
  return crashed > 0 ? 1 : 0;
}

process.exit(await main());
