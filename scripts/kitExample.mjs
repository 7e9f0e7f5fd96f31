/**
 * `npm run test:kit`: the example of docs/testing.md, run as a tester runs it — the package packed
 * (`npm pack`, which builds the MCP server and the kit), its tarball and @playwright/test installed
 * into a fresh temporary folder, the page's code blocks written there, type-checked against the
 * package's own types, and run with Playwright. Needs `npm run build` first (the extension the
 * package ships). Nothing here downloads a browser: the kit runs TETHER_CHROMIUM or /usr/bin/chromium.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const version = (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;

/** The files of the example: each `<!-- kit-example: NAME -->` in docs/testing.md, and the code block after it. */
export function exampleFiles(markdown) {
  const files = new Map();
  for (const match of markdown.matchAll(/<!-- kit-example: ([\w.-]+) -->\s*```\w*\n([\s\S]*?)\n```/g)) files.set(match[1], `${match[2]}\n`);
  return files;
}

function run(command, args, cwd, options = {}) {
  console.log(`$ ${command} ${args.join(' ')}`);
  return execFileSync(command, args, {
    cwd,
    stdio: options.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit',
    encoding: 'utf8',
    env: options.env ?? process.env,
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!existsSync(join(root, 'dist', 'manifest.json'))) throw new Error('No extension in dist/: run npm run build first (the package ships it).');
  const files = exampleFiles(readFileSync(join(root, 'docs', 'testing.md'), 'utf8'));
  if (!files.has('blog-from-cafe.spec.ts') || !files.has('playwright.config.ts'))
    throw new Error('docs/testing.md lost its example blocks (<!-- kit-example: … -->)');

  const work = mkdtempSync(join(tmpdir(), 'tether-kit-example-'));
  const packs = join(work, 'pack');
  const folder = join(work, 'project');
  mkdirSync(packs);
  mkdirSync(folder);
  // npm pack runs prepack: the MCP server, the native host and the kit are built afresh.
  // (What prepack prints comes first on stdout; npm's JSON is the last thing there.)
  const packOutput = run('npm', ['pack', '--json', '--pack-destination', packs], root, { capture: true });
  const [packed] = JSON.parse(packOutput.slice(packOutput.search(/^\[\s*\{/m)));
  const tarball = join(packs, packed.filename);
  const shipped = packed.files.map((file) => file.path);
  for (const needed of ['dist/manifest.json', 'dist-testing/index.js', 'dist-testing/index.d.ts', 'dist-bridge/tether-mcp.js', 'dist-bridge/tether-host.js'])
    if (!shipped.includes(needed)) throw new Error(`the package lacks ${needed}`);

  writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ name: 'tether-kit-example', private: true, type: 'module' }, null, 2)}\n`);
  writeFileSync(
    join(folder, 'tsconfig.json'),
    `${JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] } }, null, 2)}\n`,
  );
  for (const [name, text] of files) writeFileSync(join(folder, name), text);
  // The versions Tether's own lock has, from npm's cache where `npm ci` put them (no download when it did).
  run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--save-dev',
      tarball,
      `@playwright/test@${version('@playwright/test')}`,
      `typescript@${version('typescript')}`,
      `@types/node@${version('@types/node')}`,
    ],
    folder,
  );
  // The example compiles against the package's published types, as a tester's editor checks it.
  run(process.execPath, [join(folder, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', folder], folder);
  try {
    run(process.execPath, [join(folder, 'node_modules', '@playwright', 'test', 'cli.js'), 'test'], folder);
  } catch (error) {
    console.error(`\nThe kit's example failed; its folder is kept: ${folder}`);
    throw error;
  }
  rmSync(work, { recursive: true, force: true });
  console.log('\nThe kit example (docs/testing.md) passed from the packed tarball.');
}
