/**
 * Compiles tether-mcp/testing (testing/) for the package: dist-testing/index.js, one ES module with
 * the MCP client bundled (the package keeps no runtime dependencies), and dist-testing/index.d.ts,
 * its types in one file. `@playwright/test` stays the tester's own (a peer dependency): Playwright
 * refuses to run with two copies of it. The kit launches the extension in dist/ (`npm run build`).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const out = resolve(root, 'dist-testing');
mkdirSync(out, { recursive: true });

await build({
  entryPoints: [resolve(root, 'testing', 'index.ts')],
  outfile: resolve(out, 'index.js.tmp'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['@playwright/test'],
  // The MCP SDK (bundled) is CommonJS in parts; a require() in an ES module needs one.
  banner: { js: "import { createRequire as __tetherCreateRequire } from 'node:module'; const require = __tetherCreateRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
});
renameSync(resolve(out, 'index.js.tmp'), resolve(out, 'index.js'));

// One declaration file: the kit's public types and the product's result types they name, and
// nothing else (no zod, no MCP SDK: the tester has neither). TypeScript 7 writes the declarations
// of testing/ and what it imports (seconds); dts-bundle-generator joins what index.d.ts reaches
// into one file (it would take minutes to compile the sources itself: the MCP SDK's types).
const decl = resolve(out, '.decl');
rmSync(decl, { recursive: true, force: true });
execFileSync(process.execPath, [resolve(root, 'node_modules', 'typescript7', 'bin', 'tsc'), '-p', resolve(root, 'tsconfig.testing.json'), '--outDir', decl], {
  stdio: 'inherit',
});
writeFileSync(
  resolve(decl, 'tsconfig.json'),
  JSON.stringify({
    extends: '../../tsconfig.node.json',
    compilerOptions: { noEmit: false, declaration: true, emitDeclarationOnly: true },
    include: ['testing'],
  }),
);
const dts = resolve(out, 'index.d.ts.tmp');
execFileSync(
  process.execPath,
  [
    resolve(root, 'node_modules', 'dts-bundle-generator', 'dist', 'bin', 'dts-bundle-generator.js'),
    '--silent',
    '--no-check',
    '--no-banner',
    '--project',
    resolve(decl, 'tsconfig.json'),
    '-o',
    dts,
    resolve(decl, 'testing', 'index.d.ts'),
  ],
  { stdio: 'inherit' },
);
rmSync(decl, { recursive: true, force: true });
const types = readFileSync(dts, 'utf8');
rmSync(dts);
const imports = [...types.matchAll(/^import .* from ['"]([^'"]+)['"]/gm)].map((match) => match[1]);
const foreign = imports.filter((name) => name !== '@playwright/test');
if (foreign.length > 0)
  throw new Error(`dist-testing/index.d.ts would import ${foreign.join(', ')}, which a tester does not have: keep those types out of testing/index.ts`);
writeFileSync(resolve(out, 'index.d.ts'), types);
console.log('Wrote dist-testing/index.js and dist-testing/index.d.ts');
