// Builds the dashboard into ui/dist with Vite (ui/vite.config.ts), then holds
// the bundle to its budget (ui/budget.mjs): a build that breaks it fails.
// `--outDir <dir>` builds elsewhere (served with SVC_UI_DIST=<dir>).
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'vite';
import { checkBudget } from './budget.mjs';

const { values } = parseArgs({ options: { outDir: { type: 'string' } } });
const outDir = values.outDir ? resolve(values.outDir) : fileURLToPath(new URL('./dist', import.meta.url));
await build({ configFile: fileURLToPath(new URL('./vite.config.ts', import.meta.url)), logLevel: 'warn', build: { outDir } });
const report = checkBudget(outDir);
console.log(`ui: built ${outDir}; entry ${report.entryKb} KB gzip, largest lazy chunk ${report.largestLazyKb} KB gzip`);
if (report.problems.length > 0) {
  for (const p of report.problems) console.error(`ui budget: ${p}`);
  process.exit(1);
}
