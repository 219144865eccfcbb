import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The SPA: built into dist/client, served by the Node server under a strict CSP (no inline script).
export default defineConfig({
  root: 'src/client',
  base: '/',
  plugins: [react()],
  resolve: { conditions: ['@codeagent/source'] },
  // The highlighter worker is an ES module worker, so each grammar stays its own chunk, loaded when first shown.
  worker: { format: 'es' },
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    // No inline module-preload polyfill: every script is a file the CSP allows.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    // The main chunk carries React, the AI SDK UI client and react-markdown (~205 kB gzip); shiki loads lazily.
    chunkSizeWarningLimit: 800,
  },
});
