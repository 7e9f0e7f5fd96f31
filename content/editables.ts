/**
 * Finding the element that really holds a field's text, whatever the page built it from: an
 * input, a textarea, a select, a contenteditable, a rich editor (Quill, ProseMirror/TipTap), or an
 * editor whose document lives in a same-origin iframe (as the big blog platforms host theirs).
 *
 * Elements inside an iframe belong to another JavaScript realm, so kinds are decided by tag name
 * and properties, never by `instanceof`.
 */
import type { FieldKind } from '../shared/pageProtocol.ts';

export interface Editable {
  kind: FieldKind;
  /** The element that holds the text and takes focus. */
  element: HTMLElement;
  /** The document that owns `element` (the iframe's document for iframe editors). */
  doc: Document;
  frame: HTMLIFrameElement | null;
}

const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', '']);
const RICH_EDITOR_ROOTS = '.ql-editor, .ProseMirror';

function tag(element: Element): string {
  return element.tagName.toLowerCase();
}

function isTextInput(element: Element): element is HTMLInputElement {
  return tag(element) === 'input' && TEXT_INPUT_TYPES.has(((element as HTMLInputElement).getAttribute('type') ?? '').toLowerCase());
}

function fromFrame(frame: HTMLIFrameElement): Editable | null {
  let doc: Document | null = null;
  try {
    doc = frame.contentDocument;
  } catch {
    return null; // cross-origin: not ours to touch
  }
  if (!doc?.body) return null;
  const body = doc.body;
  if (doc.designMode === 'on' || body.isContentEditable) return { kind: 'iframe-editor', element: body, doc, frame };
  const inner = doc.querySelector<HTMLElement>(`${RICH_EDITOR_ROOTS}, [contenteditable="true"], [contenteditable=""]`);
  if (inner) return { kind: 'iframe-editor', element: inner, doc, frame };
  return null;
}

/** The editable behind an element an adapter or the generic scan pointed at. */
export function editableFrom(element: Element): Editable | null {
  const doc = element.ownerDocument;
  const name = tag(element);
  if (name === 'iframe') return fromFrame(element as HTMLIFrameElement);
  if (name === 'textarea') return { kind: 'textarea', element: element as HTMLTextAreaElement, doc, frame: null };
  if (name === 'select') return { kind: 'select', element: element as HTMLSelectElement, doc, frame: null };
  if (isTextInput(element)) return { kind: 'input', element, doc, frame: null };
  if (element.matches(RICH_EDITOR_ROOTS)) return { kind: 'rich-editor', element: element as HTMLElement, doc, frame: null };
  if ((element as HTMLElement).isContentEditable) {
    const richRoot = element.closest<HTMLElement>(RICH_EDITOR_ROOTS);
    if (richRoot) return { kind: 'rich-editor', element: richRoot, doc, frame: null };
    return { kind: 'contenteditable', element: element as HTMLElement, doc, frame: null };
  }
  // A container: look inside for the editor it hosts.
  const inner = element.querySelector(`${RICH_EDITOR_ROOTS}, [contenteditable="true"], [contenteditable=""], textarea, select, input, iframe`);
  return inner ? editableFrom(inner) : null;
}

/** Blocks of a rich editor, one line each: their models are paragraph lists. */
function richEditorText(root: HTMLElement): string {
  return Array.from(root.children)
    .map((child) => (child as HTMLElement).innerText ?? child.textContent ?? '')
    .join('\n');
}

export function readEditable(editable: Editable): string {
  const { element, kind } = editable;
  switch (kind) {
    case 'input':
    case 'textarea':
    case 'select':
      return (element as HTMLInputElement).value;
    case 'rich-editor':
      return richEditorText(element);
    case 'contenteditable':
    case 'iframe-editor':
      return element.querySelector(RICH_EDITOR_ROOTS) ? richEditorText(element.querySelector(RICH_EDITOR_ROOTS) as HTMLElement) : element.innerText;
  }
}

/** The markup of a contenteditable, kept so a rollback can restore formatting, not just text. */
export function readEditableHtml(editable: Editable): string | null {
  return editable.kind === 'input' || editable.kind === 'textarea' || editable.kind === 'select' ? null : editable.element.innerHTML;
}

export function selectOptions(editable: Editable): string[] | undefined {
  if (editable.kind !== 'select') return undefined;
  return Array.from((editable.element as HTMLSelectElement).options).map((option) => option.value);
}

export function isFocused(editable: Editable): boolean {
  const active = editable.doc.activeElement;
  if (!active) return false;
  if (active === editable.element || editable.element.contains(active)) {
    return editable.frame ? document.activeElement === editable.frame : true;
  }
  return false;
}

export function isDisabled(element: Element): boolean {
  return (element as HTMLInputElement).disabled === true || element.getAttribute('aria-disabled') === 'true' || (element as HTMLInputElement).readOnly === true;
}

/** Visible enough to be a real field a person could see. */
export function isVisible(element: Element): boolean {
  const html = element as HTMLElement;
  if (html.hidden) return false;
  const rect = html.getBoundingClientRect();
  if (rect.width === 0 && rect.height === 0) return false;
  const style = element.ownerDocument.defaultView?.getComputedStyle(html);
  return style?.visibility !== 'hidden' && style?.display !== 'none';
}
