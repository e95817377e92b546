// The skill injection scan on hostile 2 MB bodies (the body limit): every
// rule must stay linear, since a regular expression that backtracks turns one
// POST /api/skills into minutes of work (in the pool thread now, but a thread
// and a refused install all the same). Baseline: the scan of a benign 2 MB
// body of ordinary skill text in the same run. Each figure is the process's
// CPU time for one scan, the least of 5, in process, at 1 MB and at 2 MB: on
// the shared cores wall time counts other processes' turns too, and a growth
// ratio of wall-time medians swung from 2× to 4× on a linear shape under load. Targets: every hostile shape within
// 20× the baseline at 2 MB, and its 2 MB time within 3× its 1 MB time (linear
// work doubles; a quadratic rule quadruples, and is thousands of times slower
// than the baseline at this size).
import { scanSkill } from '../../shared/skills/index.ts';
import { fmt } from './lib/stats.ts';
import type { Benchmark, BenchResult } from './lib/types.ts';

const SIZE = 2_000_000;
const RUNS = 5;
const MAX_RATIO = 20;
const MAX_GROWTH = 3;

/** A hostile body: `head` once, then `unit` repeated up to the size. */
export interface HostileShape {
  head?: string;
  unit: string;
}

export const hostileBody = ({ head = '', unit }: HostileShape, size: number): string => head + unit.repeat(Math.ceil(size / unit.length));

export const HOSTILE_SHAPES: Record<string, HostileShape> = {
  comments: { unit: '<!-- ' },
  hiddenElements: { unit: '<div hidden>x' },
  fillerWords: { unit: 'ignore all all all ' },
  curls: { unit: 'curl ' },
  images: { unit: '![a](https://x/?' },
  base64: { unit: 'QUJD' },
  shortLines: { unit: 'a\n' },
  rmFlags: { unit: 'rm -r -f -x ' },
  // Issue 15 #3: an unclosed tag full of hidden attributes (was quadratic: 518 ms at 80 KB).
  unclosedHidden: { head: '<a ', unit: 'display:none ' },
  unclosedHiddenAttr: { head: '<div', unit: ' hidden x=1' },
  tagNameDashes: { head: '<a', unit: '-a' },
  hiddenAssignSpaces: { head: '<a hidden=', unit: ' ' },
  // `^\s*` of a line rule ran on across every following blank line.
  blankLines: { unit: '\n' },
  spaceLines: { unit: ' \n' },
  // Two unbounded whitespace quantifiers side by side (`\s*\]?\s*`, `\s*;?\s*`, `\s+(?:-c\s+)?["']?\s*`).
  roleMarkerSpaces: { head: '### system', unit: ' ' },
  shellSpaces: { head: 'sh ', unit: ' ' },
  iexSpaces: { head: 'iex', unit: ' ' },
  forkBombSpaces: { head: ':(){ :|:& }', unit: ' ' },
  whileSpaces: { head: 'while true', unit: ' ' },
  // Each match was tested against every allowed span (emoji ZWJ sequences, subdivision flags).
  emojiSequences: { unit: '\u{1F469}\u200D\u{1F4BB} ' },
  subdivisionFlags: { unit: '\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F} ' },
};

function timeScan(body: string): number {
  let fastest = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.cpuUsage();
    scanSkill({ body });
    const { user, system } = process.cpuUsage(t0);
    fastest = Math.min(fastest, (user + system) / 1000);
  }
  return fastest;
}

async function run(): Promise<BenchResult> {
  const benign: HostileShape = { unit: 'Use the repository tools to read files, run the tests and write a short summary.\n' };
  const base = timeScan(hostileBody(benign, SIZE));
  const baseGrowth = base / timeScan(hostileBody(benign, SIZE / 2));
  console.log(`  baseline (benign 2 MB): ${fmt(base, 0)} ms CPU (growth 1 → 2 MB ${fmt(baseGrowth, 2)}×)`);
  let worst = { shape: '', ms: 0 };
  let steepest = { shape: '', growth: 0 };
  for (const [shape, spec] of Object.entries(HOSTILE_SHAPES)) {
    const half = timeScan(hostileBody(spec, SIZE / 2));
    const ms = timeScan(hostileBody(spec, SIZE));
    const growth = ms / half;
    const pass = ms / base <= MAX_RATIO && growth <= MAX_GROWTH;
    console.log(`  ${pass ? 'PASS' : 'FAIL'}: ${shape.padEnd(20)} ${fmt(ms, 0).padStart(5)} ms (${fmt(ms / base, 1)}× baseline); growth 1 → 2 MB ${fmt(growth, 2)}×`);
    if (ms > worst.ms) worst = { shape, ms };
    if (growth > steepest.growth) steepest = { shape, growth };
  }
  return {
    name: 'skill-scan',
    figures: `benign 2 MB ${fmt(base, 0)} ms; worst hostile shape ${worst.shape} ${fmt(worst.ms, 0)} ms; steepest growth ${steepest.shape}`,
    ratio: `worst = ${fmt(worst.ms / base, 1)}× the benign scan; growth 1 → 2 MB ≤ ${fmt(steepest.growth, 2)}×`,
    target: `every hostile 2 MB shape ≤ ${MAX_RATIO}× the benign scan and ≤ ${MAX_GROWTH}× its 1 MB time (linear)`,
    pass: worst.ms / base <= MAX_RATIO && steepest.growth <= MAX_GROWTH,
  };
}

export const skillScan: Benchmark = { name: 'skill-scan', run };
