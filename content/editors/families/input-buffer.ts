/**
 * Editors that render a document nobody types into and take keystrokes in a hidden input iframe:
 * the pattern of Naver's SmartEditor ONE and its `input_buffer` frame, in general. SmartEditor ONE
 * itself, whose components Tether knows and whose own model it calls on Naver's sites, is a
 * family of its own (smarteditor-one.ts), found first.
 *
 * Its text is read block by block from the rendered document (`.se-content`); writing goes
 * through the buffer (deliver.ts's buffer-* paths): its own select-all (Ctrl+A) and end
 * (Ctrl+End) keys place the caret in its model, then a paste or typed text.
 */
import { describeFamily, type FamilyDetection } from './family.ts';

export const inputBufferDetection: FamilyDetection<'input-buffer'> = {
  id: 'input-buffer',
  // An element inside the rendered document is read from it, but has no buffer to type into: the
  // buffer driver selects the whole document before it writes, so a write there is refused naming
  // the family, and the page is left as it was.
  // SmartEditor ONE's own .se-content (around its .se-components-wrap) is that family's, not a second field.
  find: {
    by: 'buffer',
    frames: 'iframe[id^="input_buffer"], iframe.se-input-buffer',
    document: '.se-content:not(:has(.se-components-wrap))',
    scope: '.se-wrap',
    parts: '.se-content',
  },
  chrome: ['.se-toolbar'],
  placeholder: '.se-placeholder',
  read: 'blocks',
};

export const inputBuffer = /* @__PURE__ */ describeFamily(inputBufferDetection, {
  text: 'rich',
  model: 'own',
  // The editor keeps its caret in its own model: keys move it (Ctrl+A, Ctrl+End) as the person's would.
  write: {
    text: { fill: ['buffer-paste', 'buffer-insertText'], append: ['buffer-paste', 'buffer-insertText'] },
    html: { fill: ['buffer-paste'], append: ['buffer-paste'] },
    clear: ['buffer-keys'],
  },
  selectAll: 'keys',
  // The suite's input-buffer page keeps h2–h4.
  headings: ['h2', 'h3', 'h4'],
  lists: ['ul', 'ol'],
  checked: 'the input-buffer page of e2e editors.spec (e2e/sites/client/editors/inputBuffer.ts), 2026-12-01',
});
