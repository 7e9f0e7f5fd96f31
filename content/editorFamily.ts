/**
 * Which editor a field is, told from the DOM alone: the content script runs in the isolated world
 * and cannot reach editor objects, so each family is known by the markup it renders. The act
 * module chooses how to write by family (content/editors/); inspect only needs the field's kind.
 */

export const EDITOR_FAMILIES = [
  'input',
  'textarea',
  'select',
  'contenteditable',
  'designmode',
  'ckeditor5',
  'lexical',
  'prosemirror',
  'slate',
  'draft',
  'quill',
  'tinymce',
  'codemirror',
  'input-buffer',
] as const;
export type EditorFamily = (typeof EDITOR_FAMILIES)[number];

/** Roots of editors that keep their own document model and render it into a contenteditable. */
const MODEL_EDITOR_ROOTS: Array<[string, EditorFamily]> = [
  ['.ck-editor__editable', 'ckeditor5'],
  ['[data-lexical-editor="true"]', 'lexical'],
  ['.ProseMirror', 'prosemirror'],
  ['[data-slate-editor="true"]', 'slate'],
  ['.public-DraftEditor-content', 'draft'],
  ['.ql-editor', 'quill'],
  ['.cm-content', 'codemirror'],
];

export const RICH_EDITOR_ROOTS = MODEL_EDITOR_ROOTS.map(([selector]) => selector).join(', ');

/**
 * Editors that render a document nobody types into, and take keystrokes in a hidden input iframe
 * (the pattern of Naver's SmartEditor ONE and its `input_buffer` frame).
 */
export const INPUT_BUFFER_FRAMES = 'iframe[id^="input_buffer"], iframe.se-input-buffer';
export const RENDERED_DOCUMENTS = '.se-content';

/** The family of a rich root (an element matching RICH_EDITOR_ROOTS). */
export function richFamily(root: Element): EditorFamily {
  return MODEL_EDITOR_ROOTS.find(([selector]) => root.matches(selector))?.[1] ?? 'contenteditable';
}

/** The family of an editor hosted in an iframe, from its document. */
export function frameFamily(body: HTMLElement): EditorFamily {
  if (body.id === 'tinymce' || body.classList.contains('mce-content-body')) return 'tinymce';
  return body.matches(RICH_EDITOR_ROOTS) ? richFamily(body) : 'designmode';
}
