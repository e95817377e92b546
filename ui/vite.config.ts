// The dashboard's build: Vite with React and Tailwind, rooted at ui/, into
// ui/dist, which the supervisor's static plugin serves. `ui/build.mjs` runs
// it and then the bundle budget check (ui/budget.mjs).
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline script or style may reach index.html: the page's CSP forbids them.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
    manifest: true,
  },
  server: { port: 5173, strictPort: true, proxy: { '/api': 'http://127.0.0.1:18790' } },
});
