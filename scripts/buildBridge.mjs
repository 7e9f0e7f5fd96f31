/**
 * Compiles the MCP server and the native messaging host to plain JavaScript in dist-bridge/: one
 * self-contained ES module each (every dependency bundled), so `npx tether-mcp` starts without
 * compiling anything and the published package needs no runtime dependencies.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { build } from 'esbuild';
import { compiledToolList } from './toolList.mjs';

const root = resolve(import.meta.dirname, '..');
const out = resolve(root, 'dist-bridge');
const { version } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));

/**
 * zod re-exports every locale it has (`z.locales`), which no tree shaking removes: ~200 KB of
 * messages in 40 languages the server never shows, parsed at every start. Only English is kept.
 */
const englishZodOnly = {
  name: 'english-zod-only',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/zod/`) ? { path: resolve(args.resolveDir, dirname(args.path), 'en.js'), namespace: 'zod-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: root,
    }));
  },
};

/**
 * The MCP SDK's server imports Ajv (with its formats) for elicitation schemas; Tether gives the
 * server a validator of its own (bridge/mcp/mcpServer.ts), so Ajv is never constructed: left out.
 */
const withoutAjv = {
  name: 'without-ajv',
  setup(build) {
    build.onResolve({ filter: /validation\/ajv-provider\.js$/ }, (args) =>
      args.importer.includes('@modelcontextprotocol') ? { path: 'ajv-provider', namespace: 'no-ajv' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'no-ajv' }, () => ({
      contents: `export class AjvJsonSchemaValidator { constructor() { throw new Error('Ajv is not bundled: pass jsonSchemaValidator'); } }`,
    }));
  },
};

// Built aside, then renamed into place file by file: a test or bridge starting meanwhile never
// finds a half-written file (npm pack rebuilds while other processes may run these).
mkdirSync(out, { recursive: true });
const aside = mkdtempSync(resolve(out, '.build-'));
const toolList = JSON.stringify(await compiledToolList(aside));
// The bundled SDK's protocol versions, for the answer to `initialize` given before the SDK loads.
const { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } = await import('@modelcontextprotocol/sdk/types.js');
const protocolVersions = JSON.stringify({ latest: LATEST_PROTOCOL_VERSION, supported: SUPPORTED_PROTOCOL_VERSIONS });
const options = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  define: { __TETHER_VERSION__: JSON.stringify(version), __TETHER_TOOL_LIST__: toolList, __MCP_PROTOCOL_VERSIONS__: protocolVersions },
  // ws loads these optional native speed-ups inside try/catch; Tether does without them.
  external: ['bufferutil', 'utf-8-validate'],
  plugins: [englishZodOnly, withoutAjv],
  // Bundled CommonJS (ws) calls require(); give each module one.
  banner: { js: `import { createRequire as __tetherRequire } from 'node:module';\nconst require = __tetherRequire(import.meta.url);` },
};
const [server] = await Promise.all([
  // The MCP server in chunks: what `initialize` and `tools/list` need is all tether-mcp.js loads at
  // start; the browser side, Tether's schemas and the installer come as chunks when first used.
  build({
    ...options,
    entryPoints: { 'tether-mcp': resolve(root, 'bridge/main.ts') },
    outdir: aside,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    metafile: true,
  }),
  // The host is copied on its own into ~/.tether/host by `install`: one self-contained file.
  build({ ...options, entryPoints: [resolve(root, 'bridge/native/hostProgram.ts')], outfile: resolve(aside, 'tether-host.js') }),
]);
const chunks = Object.keys(server.metafile.outputs)
  .map((path) => resolve(root, path))
  .filter((path) => path.startsWith(resolve(aside, 'chunks')));
mkdirSync(resolve(out, 'chunks'), { recursive: true });
for (const chunk of chunks) renameSync(chunk, resolve(out, 'chunks', basename(chunk)));
for (const name of ['tether-mcp', 'tether-host']) {
  const file = resolve(aside, `${name}.js`);
  writeFileSync(file, `#!/usr/bin/env node\n${readFileSync(file, 'utf8')}`);
  chmodSync(resolve(aside, `${name}.js`), 0o755);
  renameSync(resolve(aside, `${name}.js`), resolve(out, `${name}.js`));
}
// Chunks of earlier builds would otherwise be packed too.
const current = new Set(chunks.map((chunk) => basename(chunk)));
for (const name of readdirSync(resolve(out, 'chunks'))) if (!current.has(name)) rmSync(resolve(out, 'chunks', name), { force: true });
rmSync(aside, { recursive: true, force: true });
console.log(`dist-bridge/: tether-mcp.js (+ ${chunks.length} chunks), tether-host.js (version ${version})`);
