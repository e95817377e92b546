// The skill injection scan on hostile 2 MB bodies (the body limit): every
// rule must stay linear, since a regular expression that backtracks turns one
// POST /api/skills into minutes of a blocked event loop. Baseline: the scan
// of a benign 2 MB body of ordinary skill text in the same run. Each shape is
// the median of 3 scans, in process. Target: every hostile shape within 20×
// the baseline (a quadratic rule is thousands of times slower at this size).
import { scanSkill } from '../../shared/skills/index.ts';
import { fmt, median } from './lib/stats.ts';
import type { Benchmark, BenchResult } from './lib/types.ts';

const SIZE = 2_000_000;
const RUNS = 3;
const MAX_RATIO = 20;

const repeat = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length));

export const HOSTILE_SHAPES: Record<string, string> = {
  comments: '<!-- ',
  hiddenElements: '<div hidden>x',
  fillerWords: 'ignore all all all ',
  curls: 'curl ',
  images: '![a](https://x/?',
  base64: 'QUJD',
  shortLines: 'a\n',
  rmFlags: 'rm -r -f -x ',
};

function timeScan(body: string): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    scanSkill({ body });
    times.push(performance.now() - t0);
  }
  return median(times);
}

async function run(): Promise<BenchResult> {
  const base = timeScan(repeat('Use the repository tools to read files, run the tests and write a short summary.\n'));
  console.log(`  baseline (benign 2 MB): ${fmt(base, 0)} ms`);
  let worst = { shape: '', ms: 0 };
  for (const [shape, unit] of Object.entries(HOSTILE_SHAPES)) {
    const ms = timeScan(repeat(unit));
    console.log(`  ${ms / base <= MAX_RATIO ? 'PASS' : 'FAIL'}: ${shape.padEnd(16)} ${fmt(ms, 0)} ms (${fmt(ms / base, 1)}× baseline)`);
    if (ms > worst.ms) worst = { shape, ms };
  }
  return {
    name: 'skill-scan',
    figures: `benign 2 MB ${fmt(base, 0)} ms; worst hostile shape ${worst.shape} ${fmt(worst.ms, 0)} ms`,
    ratio: `worst = ${fmt(worst.ms / base, 1)}× the benign scan`,
    target: `every hostile 2 MB shape ≤ ${MAX_RATIO}× the benign scan (linear)`,
    pass: worst.ms / base <= MAX_RATIO,
  };
}

export const skillScan: Benchmark = { name: 'skill-scan', run };
