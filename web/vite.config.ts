// Builds the dashboard (web/) into dist/web/ at build time: one hashed script and stylesheet, no
// CDN, no inline code (the pages are served with a strict Content-Security-Policy).
import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  publicDir: false,
  logLevel: 'warn',
  // Preact's automatic JSX runtime, through vite 8's oxc transform (no Babel, no preset plugin).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // No inline polyfill script: the CSP allows scripts from 'self' only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: false,
  },
});
