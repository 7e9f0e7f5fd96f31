/**
 * Finding the element that really holds a field's text, whatever the page built it from: an
 * input, a textarea, a select, a contenteditable, a rich editor (Quill, ProseMirror/TipTap), or an
 * editor whose document lives in a same-origin iframe (as the big blog platforms host theirs).
 *
 * Elements inside an iframe belong to another JavaScript realm, so kinds are decided by tag name
 * and properties, never by `instanceof`.
 */
import type { FieldKind } from '../shared/page/pageChannel.ts';
import { DETECTION, detectionOf, frameFamily, PLACEHOLDERS, RICH_EDITOR_ROOTS, UI_BLOCKS, type EditorFamily } from './editorFamily.ts';
import type { FamilyDetection, Finding, ReadBack } from './editors/families/family.ts';
import type { Editable } from './pageTypes.ts';

export type { Editable } from './pageTypes.ts';

const EDITABLE_ATTRIBUTES = '[contenteditable="true"], [contenteditable=""]';

/** What a finding looks for in a scan of the page (an editor's root is contenteditable already; frames are iframes). */
function scanned(find: Finding): string | null {
  if (find.by === 'control') return find.tag;
  if (find.by === 'editable') return EDITABLE_ATTRIBUTES;
  if (find.by === 'buffer') return find.document;
  return find.by === 'frame' ? 'iframe' : null;
}

/** What the generic adapter looks at to find fields. */
export const EDITABLE_CANDIDATES = [...new Set(DETECTION.flatMap(({ find }) => scanned(find) ?? []))].join(', ');

type BufferFinding = Extract<Finding, { by: 'buffer' }>;

function tag(element: Element): string {
  return element.tagName.toLowerCase();
}

function frameDocument(frame: HTMLIFrameElement): Document | null {
  try {
    return frame.contentDocument?.body ? frame.contentDocument : null;
  } catch {
    return null; // cross-origin: not ours to touch
  }
}

function fromFrame(frame: HTMLIFrameElement): Editable | null {
  for (const { id, find } of DETECTION) {
    if (find.by !== 'buffer' || !frame.matches(find.frames)) continue;
    const rendered = (frame.closest(find.scope) ?? frame.ownerDocument).querySelector(find.document);
    return rendered ? fromRenderedDocument(find, id, rendered as HTMLElement) : null;
  }
  const doc = frameDocument(frame);
  if (!doc) return null;
  const body = doc.body;
  if (doc.designMode === 'on' || body.isContentEditable) return { kind: 'iframe-editor', family: frameFamily(body, true), element: body, doc, frame };
  const inner = doc.querySelector<HTMLElement>(`${RICH_EDITOR_ROOTS}, ${EDITABLE_ATTRIBUTES}`);
  if (inner) return { kind: 'iframe-editor', family: frameFamily(inner, false), element: inner, doc, frame };
  return null;
}

/** A document rendered by its editor, typed into through a hidden input iframe next to it. */
function fromRenderedDocument(find: BufferFinding, family: EditorFamily, rendered: HTMLElement): Editable | null {
  const frame = (rendered.closest(find.scope) ?? rendered.ownerDocument).querySelector<HTMLIFrameElement>(find.frames);
  const doc = frame ? frameDocument(frame) : null;
  if (!frame || !doc) return null;
  return { kind: 'rich-editor', family, element: rendered, doc: rendered.ownerDocument, frame: null, buffer: { frame, doc, body: doc.body } };
}

/**
 * The editable a family's finding makes of an element; `claimed`: the family's, but with nothing
 * to write (stop looking); null: not the family's. Frames are found from their iframe (fromFrame).
 */
function claim({ id: family, find }: FamilyDetection, element: HTMLElement): Editable | 'claimed' | null {
  const inPage = (kind: FieldKind, at = element): Editable => ({ kind, family, element: at, doc: at.ownerDocument, frame: null });
  if (find.by === 'control') {
    const type = (element.getAttribute('type') ?? '').toLowerCase();
    // A file chooser is a field of its own kind: it takes a chosen file, never text.
    return tag(element) === find.tag && (find.types === undefined || find.types.includes(type)) ? inPage(type === 'file' ? 'file' : find.tag) : null;
  }
  if (find.by === 'root') {
    // The nearest editor root is this family's: an editor nested in another's (a code block's) is its own.
    const root = element.closest<HTMLElement>(RICH_EDITOR_ROOTS);
    return root?.matches(find.selector) && (element === root || element.isContentEditable) ? inPage('rich-editor', root) : null;
  }
  if (find.by === 'editable') return element.isContentEditable ? inPage('contenteditable') : null;
  if (find.by !== 'buffer') return null;
  if (element.matches(find.document)) return fromRenderedDocument(find, family, element) ?? 'claimed';
  // A component of the rendered document: read from it, with no buffer to type into (see input-buffer.ts).
  return element.closest(find.parts) && !element.isContentEditable ? inPage('rich-editor') : null;
}

/** The editable behind an element an adapter or the generic scan pointed at. */
export function editableFrom(element: Element): Editable | null {
  if (tag(element) === 'iframe') return fromFrame(element as HTMLIFrameElement);
  for (const detection of DETECTION) {
    const found = claim(detection, element as HTMLElement);
    if (found) return found === 'claimed' ? null : found;
  }
  // A container: look inside for the editor it hosts.
  const inner = element.querySelector(`${RICH_EDITOR_ROOTS}, ${EDITABLE_CANDIDATES}`);
  return inner ? editableFrom(inner) : null;
}

/** Blocks of a rich editor, one line each: their models are paragraph lists. */
function blockText(root: HTMLElement): string {
  // A root showing its placeholder (Slate renders it inside the then empty document) is empty.
  if (root.querySelector(PLACEHOLDERS)) return '';
  return Array.from(root.children)
    .filter((child) => !child.matches(UI_BLOCKS))
    .map((child) => (child as HTMLElement).innerText ?? child.textContent ?? '')
    .join('\n');
}

const READERS: Record<ReadBack, (element: HTMLElement) => string> = {
  value: (element) => (element as HTMLInputElement).value,
  blocks: blockText,
  document: (element) => {
    const inner = element.querySelector<HTMLElement>(RICH_EDITOR_ROOTS);
    return inner ? blockText(inner) : element.innerText;
  },
};

export function readEditable(editable: Editable): string {
  if (editable.controlRead) return editable.controlRead.text();
  const detection = detectionOf(editable.family);
  // An editor inside a frame is read as the frame's document.
  return detection.readText?.(editable.element) ?? READERS[editable.frame ? 'document' : detection.read](editable.element);
}

/** The markup of a contenteditable, kept so a rollback can restore formatting, not just text. */
export function readEditableHtml(editable: Editable): string | null {
  return editable.kind === 'input' || editable.kind === 'textarea' || editable.kind === 'select' || editable.kind === 'file'
    ? null
    : editable.element.innerHTML;
}

/** The element whose trusted input events are the person's typing in this field. */
export function typingSurface(editable: Editable): Element {
  return editable.buffer?.body ?? editable.element;
}

export function selectOptions(editable: Editable): string[] | undefined {
  if (editable.controlRead) return editable.controlRead.options();
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

/** A file chooser's accept= tokens, lower-cased (none: any file), as inspect lists them and an image step is checked against. */
export function acceptOf(element: Element): string[] {
  return ((element as HTMLInputElement).accept ?? '').split(',').flatMap((token) => token.trim().toLowerCase() || []);
}
