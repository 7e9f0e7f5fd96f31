/** `<input>` of a text type: the browser's own control; its value is the model. */
import { describeFamily, type FamilyDetection } from './family.ts';

export const inputDetection: FamilyDetection<'input'> = {
  id: 'input',
  find: { by: 'control', tag: 'input', types: ['text', 'search', 'email', 'url', 'tel', ''] },
  read: 'value',
};

// execCommand keeps the person's undo and fires the input events frameworks listen to; the native
// setter is the last resort (React-controlled inputs take it).
const paths = ['execCommand', 'setter'] as const;

export const input = /* @__PURE__ */ describeFamily(inputDetection, {
  text: 'plain',
  model: 'value',
  write: { text: { fill: paths, append: paths }, html: { fill: paths, append: paths }, clear: paths },
  selectAll: 'value',
  headings: [],
  lists: [],
  checked: 'HTML Living Standard (input, execCommand insertText); Chromium 150/156, Firefox ESR 140/153; e2e editors.spec, 2026-12-01',
});
