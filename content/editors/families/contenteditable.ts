/**
 * A plain contenteditable: the browser's DOM is the model, so `execCommand` writes it (and keeps
 * the person's undo). The generic fallback of the page: every more specific root is tried first.
 */
import { describeFamily, type FamilyDetection, type WritePaths } from './family.ts';

export const contenteditableDetection: FamilyDetection<'contenteditable'> = {
  id: 'contenteditable',
  find: { by: 'editable' },
  read: 'document',
};

/** Shared with designMode documents (designmode.ts): the same browser editing. */
export const BROWSER_EDITING: WritePaths = {
  // A fill replaces blocks with paragraphs (typed text would take the first block's type).
  text: { fill: ['insertHTML', 'execCommand', 'paste'], append: ['execCommand', 'beforeinput', 'paste'] },
  html: { fill: ['insertHTML', 'paste'], append: ['insertHTML', 'paste'] },
  clear: ['execCommand', 'beforeinput'],
};

export const contenteditable = /* @__PURE__ */ describeFamily(contenteditableDetection, {
  text: 'rich',
  model: 'dom',
  write: BROWSER_EDITING,
  selectAll: 'contents',
  headings: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
  lists: ['ul', 'ol'],
  checked: 'HTML Editing APIs (execCommand insertHTML/insertText); the contenteditable page of e2e editors.spec; Chromium 150/156, 2026-12-01',
});
