/**
 * Finding the element that really holds a field's text, whatever the page built it from: an
 * input, a textarea, a select, a contenteditable, a rich editor (Quill, ProseMirror/TipTap), or an
 * editor whose document lives in a same-origin iframe (as the big blog platforms host theirs).
 *
 * Elements inside an iframe belong to another JavaScript realm, so kinds are decided by tag name
 * and properties, never by `instanceof`.
 */
import type { FieldKind } from '../shared/pageChannel.ts';
import { frameFamily, INPUT_BUFFER_FRAMES, RENDERED_DOCUMENTS, RICH_EDITOR_ROOTS, richFamily, type EditorFamily } from './editorFamily.ts';
import { isSmartEditorOnePart, readsAsSmartEditorOne, smartEditorOneText } from './smartEditorOne.ts';

export interface Editable {
  kind: FieldKind;
  /** Which editor this is, told from the DOM; decides how the act module writes. */
  family: EditorFamily;
  /** The element that holds the text (and takes focus, unless there is an input buffer). */
  element: HTMLElement;
  /** The document that owns `element` (the iframe's document for iframe editors). */
  doc: Document;
  frame: HTMLIFrameElement | null;
  /** For editors that take keystrokes in a hidden iframe: that frame and the body typed into. */
  buffer?: { frame: HTMLIFrameElement; doc: Document; body: HTMLElement };
}

/** What the generic adapter looks at to find fields. */
export const EDITABLE_CANDIDATES = `input, textarea, select, [contenteditable="true"], [contenteditable=""], iframe, ${RENDERED_DOCUMENTS}`;

const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', '']);

function tag(element: Element): string {
  return element.tagName.toLowerCase();
}

function isTextInput(element: Element): element is HTMLInputElement {
  return tag(element) === 'input' && TEXT_INPUT_TYPES.has(((element as HTMLInputElement).getAttribute('type') ?? '').toLowerCase());
}

function frameDocument(frame: HTMLIFrameElement): Document | null {
  try {
    return frame.contentDocument?.body ? frame.contentDocument : null;
  } catch {
    return null; // cross-origin: not ours to touch
  }
}

function fromFrame(frame: HTMLIFrameElement): Editable | null {
  if (frame.matches(INPUT_BUFFER_FRAMES)) {
    const rendered = (frame.closest('.se-wrap') ?? frame.ownerDocument).querySelector(RENDERED_DOCUMENTS);
    return rendered ? fromRenderedDocument(rendered as HTMLElement) : null;
  }
  const doc = frameDocument(frame);
  if (!doc) return null;
  const body = doc.body;
  if (doc.designMode === 'on' || body.isContentEditable) return { kind: 'iframe-editor', family: frameFamily(body), element: body, doc, frame };
  const inner = doc.querySelector<HTMLElement>(`${RICH_EDITOR_ROOTS}, [contenteditable="true"], [contenteditable=""]`);
  if (inner) return { kind: 'iframe-editor', family: inner.matches(RICH_EDITOR_ROOTS) ? richFamily(inner) : 'designmode', element: inner, doc, frame };
  return null;
}

/** A document rendered by its editor, typed into through a hidden input iframe next to it. */
function fromRenderedDocument(rendered: HTMLElement): Editable | null {
  const frame = (rendered.closest('.se-wrap') ?? rendered.ownerDocument).querySelector<HTMLIFrameElement>(INPUT_BUFFER_FRAMES);
  const doc = frame ? frameDocument(frame) : null;
  if (!frame || !doc) return null;
  return { kind: 'rich-editor', family: 'input-buffer', element: rendered, doc: rendered.ownerDocument, frame: null, buffer: { frame, doc, body: doc.body } };
}

/** The editable behind an element an adapter or the generic scan pointed at. */
export function editableFrom(element: Element): Editable | null {
  const doc = element.ownerDocument;
  const name = tag(element);
  if (name === 'iframe') return fromFrame(element as HTMLIFrameElement);
  if (name === 'textarea') return { kind: 'textarea', family: 'textarea', element: element as HTMLTextAreaElement, doc, frame: null };
  if (name === 'select') return { kind: 'select', family: 'select', element: element as HTMLSelectElement, doc, frame: null };
  if (isTextInput(element)) return { kind: 'input', family: 'input', element, doc, frame: null };
  if (element.matches(RENDERED_DOCUMENTS)) return fromRenderedDocument(element as HTMLElement);
  const richRoot = element.closest<HTMLElement>(RICH_EDITOR_ROOTS);
  if (richRoot && (element === richRoot || (element as HTMLElement).isContentEditable)) {
    return { kind: 'rich-editor', family: richFamily(richRoot), element: richRoot, doc, frame: null };
  }
  if ((element as HTMLElement).isContentEditable)
    return { kind: 'contenteditable', family: 'contenteditable', element: element as HTMLElement, doc, frame: null };
  // One component of SmartEditor ONE's document (Naver Blog's title, or its body beside the title):
  // read from the rendered document, but with no input buffer to type into. The buffer driver
  // selects the whole document before it writes, which would type over the other component, so
  // a write here is refused naming the family, and the page is left as it was.
  if (isSmartEditorOnePart(element)) return { kind: 'rich-editor', family: 'input-buffer', element: element as HTMLElement, doc, frame: null };
  // A container: look inside for the editor it hosts.
  const inner = element.querySelector(
    `${RICH_EDITOR_ROOTS}, ${RENDERED_DOCUMENTS}, [contenteditable="true"], [contenteditable=""], textarea, select, input, iframe`,
  );
  return inner ? editableFrom(inner) : null;
}

/** Blocks of a rich editor, one line each: their models are paragraph lists. */
function richEditorText(root: HTMLElement): string {
  // Slate renders its placeholder inside the (then empty) document.
  if (root.querySelector('[data-slate-placeholder]')) return '';
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
      return readsAsSmartEditorOne(element) ? smartEditorOneText(element) : richEditorText(element);
    case 'contenteditable':
    case 'iframe-editor':
      return element.querySelector(RICH_EDITOR_ROOTS) ? richEditorText(element.querySelector(RICH_EDITOR_ROOTS) as HTMLElement) : element.innerText;
  }
}

/** The markup of a contenteditable, kept so a rollback can restore formatting, not just text. */
export function readEditableHtml(editable: Editable): string | null {
  return editable.kind === 'input' || editable.kind === 'textarea' || editable.kind === 'select' ? null : editable.element.innerHTML;
}

/** The element whose trusted input events are the person's typing in this field. */
export function typingSurface(editable: Editable): Element {
  return editable.buffer?.body ?? editable.element;
}

export function selectOptions(editable: Editable): string[] | undefined {
  if (editable.kind !== 'select') return undefined;
  return Array.from((editable.element as HTMLSelectElement).options).map((option) => option.value);
}

export function isFocused(editable: Editable): boolean {
  if (editable.buffer) return document.activeElement === editable.buffer.frame;
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

/**
 * An `<input type="hidden">`: never visible (isVisible's zero-size box), since every browser's
 * stylesheet gives it `display: none !important`, which no page style overrides. Told without
 * reading layout, for pages with many of them.
 */
export function isHiddenInput(element: Element): boolean {
  return tag(element) === 'input' && (element.getAttribute('type') ?? '').toLowerCase() === 'hidden';
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
