// A node:test reporter that writes one JSON line per test file: its path, its
// top-level tests and how many failed, and their summed duration (a file's
// own time less its hooks': a gateway booted in before() is not in it).
// test/run.mjs runs it beside the usual reporter and prints the slowest files
// under each tier's time, so growth is visible in every run's log.
export default async function* timingReporter(source) {
  const files = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data;
    if (nesting !== 0 || !file) continue;
    const f = files.get(file) ?? { file, tests: 0, failed: 0, ms: 0 };
    f.tests++;
    if (event.type === 'test:fail') f.failed++;
    f.ms += details?.duration_ms ?? 0;
    files.set(file, f);
  }
  for (const f of files.values()) yield `${JSON.stringify(f)}\n`;
}
