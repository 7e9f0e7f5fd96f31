/** `<textarea>`: the browser's own control; its value is the model (markdown goes in as its source). */
import { describeFamily, type FamilyDetection } from './family.ts';

export const textareaDetection: FamilyDetection<'textarea'> = {
  id: 'textarea',
  find: { by: 'control', tag: 'textarea' },
  read: 'value',
};

const paths = ['execCommand', 'setter'] as const;

export const textarea = /* @__PURE__ */ describeFamily(textareaDetection, {
  text: 'plain',
  model: 'value',
  write: { text: { fill: paths, append: paths }, html: { fill: paths, append: paths }, clear: paths },
  selectAll: 'value',
  headings: [],
  lists: [],
  checked: 'HTML Living Standard (textarea); the textarea and React pages of e2e editors.spec; Chromium 150/156, Firefox ESR 140/153, 2026-12-01',
});
