// Builds the dashboard UI into ui/dist. Until the UI issue brings Vite and
// React, the UI is one static page (ui/src/index.html), copied as is.
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('./src', import.meta.url));
const dist = fileURLToPath(new URL('./dist', import.meta.url));
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
cpSync(src, dist, { recursive: true });
console.log('ui: built ui/dist');
