// Builds the dashboard into ui/dist with Vite (ui/vite.config.ts), then holds
// the bundle to its budget (ui/budget.mjs): a build that breaks it fails.
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { checkBudget } from './budget.mjs';

const root = fileURLToPath(new URL('.', import.meta.url));
await build({ configFile: fileURLToPath(new URL('./vite.config.ts', import.meta.url)), logLevel: 'warn' });
const report = checkBudget(root);
console.log(`ui: built ui/dist; entry ${report.entryKb} KB gzip, largest lazy chunk ${report.largestLazyKb} KB gzip`);
if (report.problems.length > 0) {
  for (const p of report.problems) console.error(`ui budget: ${p}`);
  process.exit(1);
}
