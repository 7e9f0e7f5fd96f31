import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { minify } from 'terser';
import { defineConfig, type Plugin } from 'vite';
import { crx, type ManifestV3Export } from '@crxjs/vite-plugin';
import { extensionManifest as manifest } from './scripts/extensionManifest.ts';
import { firefoxManifest, sidebarPanelOf } from './scripts/firefoxManifest.ts';
import { ACT_MODULE_FILE, READER_MODULE_FILE, SITES_MODULE_FILE } from './shared/page/pageChannel.ts';

/**
 * One source, one build per browser, each as the product and as the test build:
 * - `vite build` → dist/: Chromium's extension, the product.
 * - `vite build --mode test` → dist-test/: the same plus the adapters of the demo sites in e2e/sites
 *   (content/sites/adapters/testSites.ts), which the product never carries (e2e/productionBuild.spec.ts
 *   checks dist/ for their hosts). The e2e suites, the benchmarks and `npm start` load it.
 * - `vite build --mode firefox` → dist-firefox/: Firefox's add-on (its manifest derived from
 *   manifest.json by scripts/firefoxManifest.ts); `--mode firefox-test` → dist-firefox-test/.
 */
interface Target {
  browser: 'chrome' | 'firefox';
  outDir: string;
  /** esbuild/Vite target: the oldest browser each build supports. */
  esTarget: string;
  manifest: ManifestV3Export;
  /** Pages no manifest key names (the keeper), or named in keys the Vite plugin does not read (Firefox's sidebar). */
  extraInputs: Record<string, string>;
  withTestSites: boolean;
}

function targetFor(mode: string): Target {
  const withTestSites = mode === 'test' || mode === 'firefox-test';
  if (mode === 'firefox' || mode === 'firefox-test') {
    const derived = firefoxManifest(manifest);
    const panel = sidebarPanelOf(derived);
    return {
      browser: 'firefox',
      outDir: withTestSites ? 'dist-firefox-test' : 'dist-firefox',
      esTarget: 'firefox140',
      // Plain JSON in, plain JSON out; checked where it matters: by Firefox at install and by
      // `web-ext lint` in npm test.
      manifest: derived as unknown as ManifestV3Export,
      extraInputs: panel ? { sidebar: panel } : {},
      withTestSites,
    };
  }
  return {
    browser: 'chrome',
    outDir: withTestSites ? 'dist-test' : 'dist',
    esTarget: 'chrome116',
    manifest,
    // The keeper's offscreen document (background/keeper.ts) is opened by code, not named in the manifest.
    extraInputs: { keeper: 'extension/keeper.html' },
    withTestSites,
  };
}
const CONTENT_SCRIPT = 'content.js';
/** Injected by the worker into a bound document when an act needs it (see content/act/actContract.ts). */
const ACT_MODULE = ACT_MODULE_FILE;
/** Names this build, in the worker's code and in the manifest, so a stale cached worker can tell. */
const BUILD_ID = Date.now().toString(36);

/**
 * The content script is loaded into every page, so it is built on its own: one classic script,
 * tree-shaken, with no chunks shared with the worker or the UI and nothing web-accessible (pages
 * cannot fetch Tether's files to detect it). It is then declared in the built manifest. The act
 * module (plan checks, writes, editor drivers, markdown and HTML conversion) is a second classic
 * script, injected only into documents an agent acts on; the site adapters are a third, injected
 * only into pages an adapter claims; the reader module (Readability) a fourth, injected only into
 * documents whose article or comments an agent reads.
 */
function contentScript(target: Target): Plugin {
  // `vite build --outDir …` (npm run package) builds elsewhere than the mode's folder.
  let outDir = target.outDir;
  return {
    name: 'tether-content-script',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      // __TETHER_TEST_SITES__ is false in the product: the demo sites' adapters are dropped as dead code.
      const options = {
        bundle: true,
        minify: true,
        format: 'iife',
        target: target.esTarget,
        legalComments: 'none',
        logLevel: 'warning',
        define: { __TETHER_TEST_SITES__: JSON.stringify(target.withTestSites) },
      } as const;
      await build({ ...options, entryPoints: [resolve('content/index.ts')], outfile: resolve(outDir, CONTENT_SCRIPT) });
      // Every page loads the content script, so it gets terser's second compression pass on top of
      // esbuild's minify (about 450 B of gzip less; safe transforms only, names mangled inside the IIFE).
      const contentFile = resolve(outDir, CONTENT_SCRIPT);
      const squeezed = await minify(await readFile(contentFile, 'utf8'), { compress: { passes: 2 }, mangle: true, format: { comments: false } });
      if (squeezed.code === undefined) throw new Error('terser gave no output for the content script');
      await writeFile(contentFile, squeezed.code);
      await build({ ...options, entryPoints: [resolve('content/act/actModule.ts')], outfile: resolve(outDir, ACT_MODULE) });
      await build({ ...options, entryPoints: [resolve('content/sites/sitesModule.ts')], outfile: resolve(outDir, SITES_MODULE_FILE) });
      await build({ ...options, entryPoints: [resolve('content/reader/readerModule.ts')], outfile: resolve(outDir, READER_MODULE_FILE) });
      const manifestPath = resolve(outDir, 'manifest.json');
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
    // The worker reads __TETHER_TEST_SITES__ too: the test build calls SmartEditor ONE over http (its fixtures), the product only over https.
    define: { __TETHER_BUILD__: JSON.stringify(BUILD_ID), __TETHER_TEST_SITES__: JSON.stringify(target.withTestSites) },
    // The UI uses Preact through the automatic JSX runtime; no framework plugin is needed.
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: {
      outDir: target.outDir,
      emptyOutDir: true,
      target: target.esTarget,
      sourcemap: false,
      minify: true,
      rollupOptions: { input: target.extraInputs },
    },
    // Vite would start a dev server on these otherwise; the sites server lives in e2e/.
    server: { port: 5173, strictPort: true },
  };
});
