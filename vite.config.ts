import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { defineConfig, type Plugin } from 'vite';
import { crx, type ManifestV3Export } from '@crxjs/vite-plugin';
import manifest from './manifest.json' with { type: 'json' };
import { firefoxManifest, sidebarPanelOf } from './scripts/firefoxManifest.ts';
import { ACT_MODULE_FILE } from './shared/pageChannel.ts';

/**
 * One source, one build per browser: `vite build` writes Chromium's extension to dist/,
 * `vite build --mode firefox` writes Firefox's to dist-firefox/ (its manifest derived from
 * manifest.json by scripts/firefoxManifest.ts).
 */
interface Target {
  browser: 'chrome' | 'firefox';
  outDir: string;
  /** esbuild/Vite target: the oldest browser each build supports. */
  esTarget: string;
  manifest: ManifestV3Export;
  /** Pages the manifest names in keys the Vite plugin does not read (Firefox's sidebar). */
  extraInputs: Record<string, string>;
}

function targetFor(mode: string): Target {
  if (mode === 'firefox') {
    const derived = firefoxManifest(manifest);
    const panel = sidebarPanelOf(derived);
    return {
      browser: 'firefox',
      outDir: 'dist-firefox',
      esTarget: 'firefox140',
      // Plain JSON in, plain JSON out; checked where it matters: by Firefox at install and by
      // `web-ext lint` in npm test.
      manifest: derived as unknown as ManifestV3Export,
      extraInputs: panel ? { sidebar: panel } : {},
    };
  }
  return { browser: 'chrome', outDir: 'dist', esTarget: 'chrome116', manifest, extraInputs: {} };
}
const CONTENT_SCRIPT = 'content.js';
/** Injected by the worker into a bound document when an act needs it (see content/actHook.ts). */
const ACT_MODULE = ACT_MODULE_FILE;
/** Names this build, in the worker's code and in the manifest, so a stale cached worker can tell. */
const BUILD_ID = Date.now().toString(36);

/**
 * The content script is loaded into every page, so it is built on its own: one classic script,
 * tree-shaken, with no chunks shared with the worker or the UI and nothing web-accessible (pages
 * cannot fetch Tether's files to detect it). It is then declared in the built manifest. The act
 * module (plan checks, writes, editor drivers, markdown and HTML conversion) is a second classic
 * script, injected only into documents an agent acts on.
 */
function contentScript(target: Target): Plugin {
  const OUT_DIR = target.outDir;
  return {
    name: 'tether-content-script',
    apply: 'build',
    async closeBundle() {
      const options = { bundle: true, minify: true, format: 'iife', target: target.esTarget, legalComments: 'none', logLevel: 'warning' } as const;
      await build({ ...options, entryPoints: [resolve('content/index.ts')], outfile: resolve(OUT_DIR, CONTENT_SCRIPT) });
      await build({ ...options, entryPoints: [resolve('content/actModule.ts')], outfile: resolve(OUT_DIR, ACT_MODULE) });
      const manifestPath = resolve(OUT_DIR, 'manifest.json');
      const built = JSON.parse(await readFile(manifestPath, 'utf8')) as Record<string, unknown>;
      built.version_name = `${String(built.version)} (build ${BUILD_ID})`;
      built.content_scripts = [{ matches: ['http://*/*', 'https://*/*'], js: [CONTENT_SCRIPT], run_at: 'document_idle', all_frames: false }];
      await writeFile(manifestPath, `${JSON.stringify(built, null, 2)}\n`);
    },
  };
}

export default defineConfig(({ mode }) => {
  const target = targetFor(mode);
  return {
    plugins: [crx({ manifest: target.manifest, browser: target.browser }), contentScript(target)],
    define: { __TETHER_BUILD__: JSON.stringify(BUILD_ID) },
    // The UI uses Preact through the automatic JSX runtime; no framework plugin is needed.
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: {
      outDir: target.outDir,
      emptyOutDir: true,
      target: target.esTarget,
      sourcemap: false,
      minify: true,
      ...(Object.keys(target.extraInputs).length > 0 ? { rollupOptions: { input: target.extraInputs } } : {}),
    },
    // Vite would start a dev server on these otherwise; the sites server lives in e2e/.
    server: { port: 5173, strictPort: true },
  };
});
