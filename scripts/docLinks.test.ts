/**
 * Every relative link in the README, docs/ and bench/RESULTS.md names a file that exists, and every
 * #anchor a heading of that file (GitHub's slugs). Text moves between these pages; a link that
 * moved with it and now points nowhere fails here, not in a reader's browser.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const pages = [
  'README.md',
  'bench/RESULTS.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's heading anchor: lower case, punctuation other than `-` and `_` dropped, spaces to `-`. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(match[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** The links of a page: markdown `[text](target)` and `<img src="…">`, outside code blocks and code spans. */
export function links(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [
    ...[...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? ''),
    ...[...prose.matchAll(/<img [^>]*src="([^"]+)"/g)].map((match) => match[1] ?? ''),
  ];
}

describe('links between the README and the docs', () => {
  it('GitHub slugs', () => {
    expect(slug('On Windows (not yet run on a Windows PC)')).toBe('on-windows-not-yet-run-on-a-windows-pc');
    expect(slug('2. The native host and the MCP server')).toBe('2-the-native-host-and-the-mcp-server');
    expect(slug('The families, how each is written, and their known limits')).toBe('the-families-how-each-is-written-and-their-known-limits');
    expect(slug('`tether.workspace()`')).toBe('tetherworkspace');
  });

  it('finds links, and none inside code', () => {
    expect(links('see [a](a.md#x) and `[b](b.md)`\n```\n[c](c.md)\n```\n<img src="i.png" alt="">')).toEqual(['a.md#x', 'i.png']);
  });

  for (const page of pages) {
    it(`every relative link in ${page} resolves`, () => {
      const file = join(root, page);
      const broken: string[] = [];
      let checked = 0;
      for (const target of links(readFileSync(file, 'utf8'))) {
        if (/^[a-z]+:/i.test(target)) continue;
        checked += 1;
        const [path = '', anchor] = target.split('#');
        const to = path === '' ? file : resolve(dirname(file), path);
        if (!existsSync(to)) broken.push(`${target} (no ${relative(root, to)})`);
        else if (anchor !== undefined && to.endsWith('.md') && !anchors(to).has(anchor)) broken.push(`${target} (no heading #${anchor})`);
      }
      expect(broken).toEqual([]);
      if (page === 'README.md') expect(checked).toBeGreaterThan(10);
    });
  }
});
