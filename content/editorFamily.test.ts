import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { DETECTION, EDITOR_FAMILIES } from './editorFamily.ts';
import { ALL_FAMILIES, FAMILIES } from './editors/families/index.ts';
import type { FamilyDetection } from './editors/families/family.ts';

const ids = DETECTION.map(({ id }) => id);
const indexWhere = (test: (detection: FamilyDetection) => boolean): number[] => DETECTION.flatMap((detection, index) => (test(detection) ? [index] : []));

describe('the editor family registry', () => {
  test('lists every family once, each in its own file, its descriptor built on its detection part', () => {
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...EDITOR_FAMILIES].sort());
    for (const detection of DETECTION) {
      expect(existsSync(new URL(`./editors/families/${detection.id}.ts`, import.meta.url)), detection.id).toBe(true);
      expect(FAMILIES[detection.id].id).toBe(detection.id);
      expect(FAMILIES[detection.id]).toMatchObject({ ...detection });
    }
    expect(ALL_FAMILIES.map(({ id }) => id)).toEqual(ids);
  });

  test('detects in order: controls, the input-buffer document, every editor root before the generic contenteditable, frame body tests before the designMode fallback (last)', () => {
    const controls = indexWhere(({ find }) => find.by === 'control');
    const buffers = indexWhere(({ find }) => find.by === 'buffer');
    const roots = indexWhere(({ find }) => find.by === 'root');
    const editable = indexWhere(({ find }) => find.by === 'editable');
    const frameTests = indexWhere(({ find }) => find.by === 'frame' && find.body !== undefined);
    const frameFallback = indexWhere(({ find }) => find.by === 'frame' && find.body === undefined);
    expect(controls).toEqual([0, 1, 2, 3]);
    expect(editable).toHaveLength(1);
    expect(frameFallback).toEqual([DETECTION.length - 1]);
    const [generic = -1] = editable;
    const [fallback = -1] = frameFallback;
    for (const index of buffers) expect(index).toBeLessThan(Math.min(...roots));
    for (const index of roots) expect(index, ids[index]).toBeLessThan(generic);
    for (const index of frameTests) expect(index, ids[index]).toBeLessThan(fallback);
  });

  test('roots are each editor’s own markup: distinct, and none the generic contenteditable', () => {
    const selectors = DETECTION.flatMap(({ find }) => (find.by === 'root' ? [find.selector] : []));
    expect(new Set(selectors).size).toBe(selectors.length);
    for (const selector of selectors) expect(selector).not.toMatch(/^\[contenteditable/);
  });

  test('descriptors agree with themselves: controls select their value, buffer paths only through a buffer, plain text keeps no structure', () => {
    for (const family of ALL_FAMILIES) {
      const paths = [...family.write.text.fill, ...family.write.text.append, ...family.write.html.fill, ...family.write.html.append, ...family.write.clear];
      expect(family.model === 'value', family.id).toBe(family.selectAll === 'value');
      expect(family.model === 'value', family.id).toBe(family.find.by === 'control');
      expect(
        paths.some((path) => path.startsWith('buffer-')),
        family.id,
      ).toBe(family.find.by === 'buffer');
      if (family.text === 'plain') expect([...family.headings, ...family.lists], family.id).toEqual([]);
      else expect(family.write.html.fill.length, family.id).toBeGreaterThan(0);
      expect(family.checked, family.id).toMatch(/\d{4}-\d{2}-\d{2}/);
    }
  });
});
