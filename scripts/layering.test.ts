import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The layering rule of eslint.config.js, checked on probes placed as if they were in background/core/. */
const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function problems(code: string, filePath = 'background/core/probe.ts'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('the pure core stays pure (eslint.config.js)', () => {
  it.each([
    ['the browser API library', "import browser from 'webextension-polyfill';\nexport const probe = browser;\n"],
    ['a store library', "import { createStore } from 'zustand/vanilla';\nexport const probe = createStore;\n"],
    ['IndexedDB', "import { openDB } from 'idb';\nexport const probe = openDB;\n"],
    ['the state layer', "import { localStore } from '../state/store.ts';\nexport const probe = localStore;\n"],
    ['a browser adapter', "import { askPage } from '../adapters/askPage.ts';\nexport const probe = askPage;\n"],
  ])('refuses %s in background/core/', async (_what, code) => {
    expect(await problems(code)).toContain('@typescript-eslint/no-restricted-imports');
  });

  it('refuses the chrome global in background/core/', async () => {
    expect(await problems('export const probe = chrome.tabs;\n')).toContain('no-restricted-globals');
  });

  it('allows types from the state layer, and the same imports outside the core', async () => {
    expect(await problems("import type { LocalState } from '../state/store.ts';\nexport type Probe = LocalState;\n")).toEqual([]);
    expect(await problems("import browser from 'webextension-polyfill';\nexport const probe = browser;\n", 'background/adapters/probe.ts')).toEqual([]);
  });
});

describe('no import cycles, type imports included (eslint.config.js: tether/no-cycle, import-x’s no-cycle counting types)', () => {
  async function lintProbe(files: Record<string, string>): Promise<Record<string, string[]>> {
    const dir = mkdtempSync(join(new URL('..', import.meta.url).pathname, 'background', 'cycle-probe-'));
    try {
      for (const [name, code] of Object.entries(files)) writeFileSync(join(dir, name), code);
      const results = await eslint.lintFiles(Object.keys(files).map((name) => join(dir, name)));
      return Object.fromEntries(
        Object.keys(files).map((name, index) => [name, (results[index]?.messages ?? []).map((message) => message.ruleId ?? message.message)]),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('refuses two modules that import each other, and allows the same two one way', async () => {
    const found = await lintProbe({
      'a.ts': "import { b } from './b.ts';\nexport const a = (): unknown => b;\n",
      'b.ts': "import { a } from './a.ts';\nexport const b = (): unknown => a;\n",
      'c.ts': "import { a } from './a.ts';\nexport const c = (): unknown => a;\n",
    });
    expect(found['a.ts']).toContain('tether/no-cycle');
    expect(found['c.ts']).not.toContain('tether/no-cycle');
  });

  it.each([
    ['one way a type import, the other a value import', "import type { B } from './b.ts';", "import { a } from './a.ts';"],
    ['both ways type imports (import type)', "import type { B } from './b.ts';", "import type { A } from './a.ts';"],
    ['both ways inline type specifiers', "import { type B } from './b.ts';", "import { type A } from './a.ts';"],
    ['a type re-export one way', "export type { B } from './b.ts';", "import type { A } from './a.ts';"],
  ])('refuses a cycle made with types: %s', async (_what, fromA, fromB) => {
    const found = await lintProbe({
      'a.ts': `${fromA}\nexport type A = string;\nexport const a = 1;\n`,
      'b.ts': `${fromB}\nexport type B = number;\nexport const b = 2;\n`,
    });
    expect([...(found['a.ts'] ?? []), ...(found['b.ts'] ?? [])]).toContain('tether/no-cycle');
  });
});
