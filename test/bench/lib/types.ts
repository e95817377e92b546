// What one benchmark hands back to run.ts for the summary table.
export interface BenchResult {
  name: string;
  /** The headline figures, one short line. */
  figures: string;
  /** The ratio against the baseline measured in the same run. */
  ratio: string;
  /** The target, as the issue states it. */
  target: string;
  pass: boolean;
}

export interface Benchmark {
  name: string;
  run(): Promise<BenchResult>;
}
