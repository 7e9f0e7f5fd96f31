import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TOOLS } from './registry.ts';
import { renderToolReference, withToolReference } from './toolReference.ts';

describe("docs/protocol.md's tool reference", () => {
  const document = readFileSync(new URL('../../docs/protocol.md', import.meta.url), 'utf8');

  it('is what the tool records say (stale: run `npm run docs:tools`)', () => {
    const reference = renderToolReference(TOOLS);
    expect(withToolReference(document, reference), 'the tool-reference markers are missing').not.toBeNull();
    expect(withToolReference(document, reference)).toBe(document);
  });

  it('names every tool, its needs and its line', () => {
    const reference = renderToolReference(TOOLS);
    for (const tool of TOOLS) expect(reference).toContain(`| \`${tool.name}\` | `);
    expect(reference).toContain('| `act` | profile, workspace, handle, plan, a write handle |');
  });
});
