import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { defineConfig, type Plugin } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import manifest from './manifest.json' with { type: 'json' };

const OUT_DIR = 'dist';
const CONTENT_SCRIPT = 'content.js';
/** Names this build, in the worker's code and in the manifest, so a stale cached worker can tell. */
const BUILD_ID = Date.now().toString(36);

/**
 * The content script is loaded into every page, so it is built on its own: one classic script,
 * tree-shaken, with no chunks shared with the worker or the UI and nothing web-accessible (pages
 * cannot fetch Tether's files to detect it). It is then declared in the built manifest.
 */
function contentScript(): Plugin {
  return {
    name: 'tether-content-script',
    apply: 'build',
    async closeBundle() {
      await build({
        entryPoints: [resolve('content/index.ts')],
        outfile: resolve(OUT_DIR, CONTENT_SCRIPT),
        bundle: true,
        minify: true,
        format: 'iife',
        target: 'chrome116',
        legalComments: 'none',
        logLevel: 'warning',
      });
      const manifestPath = resolve(OUT_DIR, 'manifest.json');
      const built = JSON.parse(await readFile(manifestPath, 'utf8')) as Record<string, unknown>;
      built.version_name = `${String(built.version)} (build ${BUILD_ID})`;
      built.content_scripts = [{ matches: ['http://*/*', 'https://*/*'], js: [CONTENT_SCRIPT], run_at: 'document_idle', all_frames: false }];
      await writeFile(manifestPath, `${JSON.stringify(built, null, 2)}\n`);
    },
  };
}

export default defineConfig({
  plugins: [crx({ manifest }), contentScript()],
  define: { __TETHER_BUILD__: JSON.stringify(BUILD_ID) },
  // The UI uses Preact through the automatic JSX runtime; no framework plugin is needed.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: OUT_DIR,
    emptyOutDir: true,
    target: 'chrome116',
    sourcemap: false,
    minify: true,
  },
  // Vite would start a dev server on these otherwise; the sites server lives in e2e/.
  server: { port: 5173, strictPort: true },
});
