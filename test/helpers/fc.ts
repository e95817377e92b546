// fast-check for every property test. Test files import `fc` from here, never
// from 'fast-check' itself (test/unit/test-hygiene.test.ts checks that), so
// every property in a run uses one seed: FC_SEED when it is set (to replay a
// failure), otherwise one drawn here. A failing property names the seed and
// the command line that replays it.
import fc from 'fast-check';

/** The seed FC_SEED asks for, or a fresh one; an FC_SEED that is not an integer is an error, not silently ignored. */
export function seedFrom(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return (Date.now() ^ Math.floor(Math.random() * 0x1_0000_0000)) | 0;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer, got ${JSON.stringify(raw)}`);
  return seed;
}

export const FC_SEED = seedFrom(process.env.FC_SEED);

/** Appended to a failing property's report. */
export const replayHint = (seed: number) => `Replay with: FC_SEED=${seed} node test/run.mjs <this test file>`;

fc.configureGlobal({
  ...fc.readConfigureGlobal(),
  seed: FC_SEED,
  // Deprecated in favour of per-call plugins, but a plugin cannot be set globally;
  // this is the one place every assert in a run passes through.
  reporter: (details) => {
    if (!details.failed) return;
    throw new Error(`${fc.defaultReportMessage(details) ?? 'Property failed'}\n${replayHint(details.seed)}`, { cause: details.errorInstance });
  },
});

export { fc };
