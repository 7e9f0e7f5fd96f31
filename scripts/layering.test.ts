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

describe('no import cycles (eslint.config.js: import-x/no-cycle)', () => {
  it('refuses two modules that import each other, and allows the same two one way', async () => {
    const dir = mkdtempSync(join(new URL('..', import.meta.url).pathname, 'background', 'cycle-probe-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import { b } from './b.ts';\nexport const a = (): unknown => b;\n");
      writeFileSync(join(dir, 'b.ts'), "import { a } from './a.ts';\nexport const b = (): unknown => a;\n");
      writeFileSync(join(dir, 'c.ts'), "import { a } from './a.ts';\nexport const c = (): unknown => a;\n");
      const [a, , c] = await eslint.lintFiles([join(dir, 'a.ts'), join(dir, 'b.ts'), join(dir, 'c.ts')]);
      expect(a?.messages.map((message) => message.ruleId)).toContain('import-x/no-cycle');
      expect(c?.messages.map((message) => message.ruleId)).not.toContain('import-x/no-cycle');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
