// A node:test reporter that writes only the failed tests: file, name and the
// error's first lines. test/run.mjs runs it beside the TAP reporter and prints
// its file last, so a failure is named at the end of a long CI log, where a
// log cut to its tail still shows it.
// Node's own frames say nothing about which line of ours failed.
const firstLines = (text, n) =>
  String(text)
    .split('\n')
    .filter((line) => !line.includes('(node:internal/') && !line.includes('node:async_hooks'))
    .slice(0, n)
    .join('\n');
const relativeFile = (file) => (file ? file.replace(`${process.cwd()}/`, '') : '(unknown file)');

function describe(error) {
  if (!error) return '(no error given)';
  // node:test wraps a test's own throw as error.cause.
  const cause = error.cause ?? error;
  return firstLines(cause.stack ?? cause.message ?? String(cause), 12);
}

export default async function* failuresReporter(source) {
  const failed = [];
  for await (const event of source) {
    if (event.type !== 'test:fail') continue;
    const { name, file, details } = event.data;
    // A file that fails as a whole (a crash, the runner's timeout) is named by its own path.
    failed.push({ name, file: relativeFile(file), error: describe(details?.error) });
  }
  if (failed.length === 0) return;
  yield `\n== ${failed.length} failed test(s)\n`;
  for (const f of failed) yield `\n-- ${f.file}\n   ${f.name}\n${f.error.replace(/^/gm, '     ')}\n`;
}
