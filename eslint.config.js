// ESLint: typescript-eslint's strict rules everywhere, and the layering rule that keeps the pure
// core (background/core/) free of browser APIs and of state: the resolver, revalidation and
// checks take plain data in and give plain data out, so unit tests can read them as the rules.
// (typescript-eslint reads sources with TypeScript 6's API; `npm run typecheck` uses TypeScript 7.)
import js from '@eslint/js';
import { createRequire } from 'node:module';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** import-x's dependency graph read with type-only imports counted (scripts/eslint/typeImportsCount.cjs). */
const TYPE_IMPORTS_COUNT = createRequire(import.meta.url).resolve('./scripts/eslint/typeImportsCount.cjs');

/**
 * import-x's no-cycle, counting type-only imports: import-x skips a type-only import both where it
 * starts the search and along the graph, with no option not to (4.18.1). Here the file's own
 * imports reach the rule as value imports (the node seen through a proxy, not changed for other
 * rules), and the modules it imports are read by TYPE_IMPORTS_COUNT.
 */
const noCycle = importX.rules['no-cycle'];
const asValue = (node) =>
  new Proxy(node, {
    get: (target, key) =>
      key === 'importKind' || key === 'exportKind'
        ? 'value'
        : key === 'specifiers' && Array.isArray(target.specifiers)
          ? target.specifiers.map((specifier) => ({ ...specifier, importKind: 'value', exportKind: 'value' }))
          : Reflect.get(target, key),
  });
const noCycleCountingTypes = {
  ...noCycle,
  create(context) {
    const visitors = noCycle.create(context);
    return Object.fromEntries(Object.entries(visitors).map(([selector, visit]) => [selector, (node) => visit(asValue(node))]));
  },
};

/** What the core may not load: the browser, storage, and the layers that hold them. Types are fine. */
const OUTSIDE_THE_CORE = [
  {
    group: ['webextension-polyfill', 'idb', 'zustand', 'zustand/*'],
    message: 'background/core/ is pure: browser APIs and stores come in as arguments (see toolContext.ts).',
  },
  {
    group: ['../state/*', '../adapters/*', '../tools/*', '../index.ts', '../uiChannel.ts', '../uiHandlers.ts'],
    message: 'background/core/ does not load state or browser adapters; take them as arguments.',
    allowTypeImports: true,
  },
];

export default tseslint.config(
  {
    ignores: [
      'reports/**',
      '.stryker-tmp/**',
      'dist/**',
      'dist-*/**',
      'release/**',
      'node_modules/**',
      'test-results/**',
      'bench/out/**',
      '.tether-profile/**',
      'e2e/screenshots/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      // Unused arguments named _x are deliberate (callbacks with a fixed signature).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Globals such as chrome, window and process come from TypeScript's lib and types, which check them better.
      'no-undef': 'off',
    },
  },
  {
    files: ['background/core/**/*.ts'],
    // Tests may build real stores to hand to the rules.
    ignores: ['background/core/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: OUTSIDE_THE_CORE }],
      'no-restricted-globals': [
        'error',
        { name: 'chrome', message: 'background/core/ is pure: browser APIs come in as arguments.' },
        { name: 'browser', message: 'background/core/ is pure: browser APIs come in as arguments.' },
        { name: 'indexedDB', message: 'background/core/ is pure: storage comes in as an argument.' },
      ],
    },
  },
  {
    // No import cycles, with no exceptions: a cycle is a layering inversion (a lower module taking
    // what it needs from one above it). Shared types move down instead (CONTRIBUTING.md). Type-only
    // imports count too: they are where such inversions start (tether/no-cycle: import-x's
    // no-cycle with them counted, above).
    plugins: { 'import-x': importX, tether: { rules: { 'no-cycle': noCycleCountingTypes } } },
    settings: {
      // The modules a file imports are read with TypeScript's parser, type-only imports counted.
      'import-x/parsers': { [TYPE_IMPORTS_COUNT]: ['.ts', '.tsx', '.mts'] },
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.js', '.mjs'],
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs'] })],
    },
    rules: { 'tether/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Playwright's fixtures must destructure their arguments, even when they use none.
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
);
