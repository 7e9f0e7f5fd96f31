import { defineConfig } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import manifest from './manifest.json' with { type: 'json' };

export default defineConfig({
  plugins: [crx({ manifest })],
  // The UI uses Preact through the automatic JSX runtime; no framework plugin is needed.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'chrome116',
    sourcemap: false,
    minify: true,
  },
  // Vite would start a dev server on these otherwise; the sites server lives in e2e/.
  server: { port: 5173, strictPort: true },
});
