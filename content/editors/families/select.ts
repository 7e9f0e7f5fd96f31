/** `<select>`: a choice, set by value (writeField.ts selectValue), never written as text. */
import { describeFamily, type FamilyDetection } from './family.ts';

export const selectDetection: FamilyDetection<'select'> = {
  id: 'select',
  find: { by: 'control', tag: 'select' },
  read: 'value',
};

export const select = /* @__PURE__ */ describeFamily(selectDetection, {
  text: 'plain',
  model: 'value',
  write: { text: { fill: [], append: [] }, html: { fill: [], append: [] }, clear: [] },
  selectAll: 'value',
  headings: [],
  lists: [],
  checked: 'HTML Living Standard (select, option); e2e editing.spec, 2026-12-01',
});
