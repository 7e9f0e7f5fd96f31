/**
 * Delivering text into an editor's own model, by family. The content script cannot call editor
 * objects (they live in the page's world); it has what a person's browser has: `execCommand`,
 * `beforeinput` events (insertText, insertFromPaste with a DataTransfer), `paste` events carrying
 * text/plain and text/html, keystrokes, and native value setters. Each family gets the paths it
 * honours, in order; a later path is tried only when the earlier one left the field unchanged, so
 * text is never written twice. Every attempt is read back.
 */
import { sameFieldText } from '../../shared/page/fieldText.ts';
import { asTether } from '../act/actHost.ts';
import { readEditable, type Editable } from '../editables.ts';
import { PLACEHOLDERS } from '../editorFamily.ts';
import { familyOf } from './families/index.ts';
import type { PathName, StoreFillOutcome } from './families/family.ts';
import { mapHeadings } from './headingLevels.ts';
import { pageTransfer, pasteEvent } from './pasteEvent.ts';
import { selectAndSync, settle } from './settle.ts';
import type { Payload } from './structuredText.ts';
import type { Mode } from '../pageTypes.ts';

export type { Mode } from '../pageTypes.ts';

export interface Delivery {
  /** The path that took, or null. */
  path: PathName | null;
  tried: PathName[];
  text: string;
  verified: boolean;
  /** Why it is not verified, where the path says (a store that refused, or answered otherwise). */
  why?: string;
  /** False when nothing reached the editor (its store refused before writing). */
  sent?: false;
}

/** What a path that reads the editor's model back itself says (the `block-store` path). */
type Ran = StoreFillOutcome | undefined;

export interface DeliveryRequest {
  editable: Editable;
  mode: Mode;
  /** What to write (ignored for clear). */
  payload: Payload;
  /** Whether what the field reads now is a right result. */
  accept(text: string): boolean;
  /** The value for native setters (text controls): the whole expected value. */
  setterValue: string;
}

/** The paths the family honours (its descriptor's `write`), for plain text, for markup, and for clearing. */
function pathsFor(editable: Editable, kind: 'text' | 'html' | 'clear', mode: Mode): readonly PathName[] {
  const { write } = familyOf(editable);
  return kind === 'clear' ? write.clear : write[kind][mode === 'append' ? 'append' : 'fill'];
}

/** A form control (input, textarea): selected and written through its value. */
function isTextControl(editable: Editable): boolean {
  return familyOf(editable).model === 'value';
}

function focusEditable(editable: Editable): void {
  if (editable.buffer) {
    editable.buffer.frame.focus();
    editable.buffer.doc.defaultView?.focus();
    editable.buffer.body.focus({ preventScroll: true });
    return;
  }
  if (editable.frame) {
    editable.frame.focus();
    editable.doc.defaultView?.focus();
  }
  editable.element.focus({ preventScroll: true });
}

/** Not where a caret goes: non-editable widgets and every family's placeholder. */
const NOT_TEXT = ['[contenteditable="false"]', PLACEHOLDERS].filter((selector) => selector !== '').join(', ');

/** Text nodes a person could place a caret in (not placeholders or non-editable widgets). */
function textLeaves(root: HTMLElement): Text[] {
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => ((node.parentElement?.closest(NOT_TEXT) ?? null) !== null ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const leaves: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) leaves.push(node as Text);
  return leaves;
}

/** The innermost first (or last) block of an empty editor, where a caret goes. */
function emptyCaret(root: HTMLElement, last: boolean): Node {
  let node: Element = root;
  for (;;) {
    const child = last ? node.lastElementChild : node.firstElementChild;
    if (!child || ['BR', 'IMG', 'HR'].includes(child.tagName)) return node;
    node = child;
  }
}

function contentRange(editable: Editable, whole: boolean): Range {
  const root = editable.element;
  const range = editable.doc.createRange();
  if (whole && familyOf(editable).selectAll === 'contents') {
    // The whole body, blocks included: what replaces it does not inherit the first block's type.
    range.selectNodeContents(root);
    return range;
  }
  const leaves = textLeaves(root);
  const first = leaves[0];
  const last = leaves[leaves.length - 1];
  if (!first || !last) {
    range.setStart(emptyCaret(root, !whole), 0);
    range.collapse(true);
    return range;
  }
  range.setStart(first, 0);
  range.setEnd(last, last.length);
  if (!whole) range.collapse(false);
  else {
    // An image before the first text or after the last is part of what a fill replaces: an inline
    // image embed (Quill's), or an inline widget that holds one (a Lexical decorator, a
    // non-editable span), taken whole.
    const pictures = Array.from(root.querySelectorAll('img')).flatMap((img) => {
      const widget = img.closest(NOT_TEXT);
      if (widget === null) return [img];
      return widget.tagName === 'SPAN' && root.contains(widget) && widget !== root ? [widget] : [];
    });
    const before = pictures[0];
    const after = pictures[pictures.length - 1];
    if (before && range.comparePoint(before, 0) < 0) range.setStartBefore(before);
    if (after && range.comparePoint(after, 0) > 0) range.setEndAfter(after);
  }
  return range;
}

/** Selects what the write replaces: everything (fill, clear) or nothing at the end (append). */
async function placeSelection(editable: Editable, whole: boolean): Promise<void> {
  if (familyOf(editable).selectAll === 'value') {
    const control = editable.element as HTMLInputElement;
    if (whole) control.select();
    else control.setSelectionRange(control.value.length, control.value.length);
    return;
  }
  const selection = editable.doc.getSelection();
  if (!selection) return;
  if (whole && familyOf(editable).selectAll === 'blocks') {
    // A block editor's own selection, as a person makes it (Editor.js): select-all twice selects
    // every block, Backspace removes them and leaves one empty block, which the paste replaces.
    await selectAndSync(editable.doc, () => {
      selection.removeAllRanges();
      selection.addRange(contentRange(editable, true));
    });
    const target = eventTarget(editable);
    await selectAndSync(editable.doc, () =>
      asTether(() => ['a', 'a', 'Backspace'].forEach((name) => key(editable, target, name, name === 'a' ? 65 : 8, name === 'a'))),
    );
    // The caret goes into the block left, where the paste is handled (the removed ones are gone).
    await selectAndSync(editable.doc, () => {
      selection.removeAllRanges();
      selection.addRange(contentRange(editable, true));
    });
    return;
  }
  if (whole && familyOf(editable).selectAll === 'keys') {
    // The editor's own select-all selects the document itself (ProseMirror's Mod-a), so what is
    // pasted replaces it block for block; a text range would keep the first block's type.
    await selectAndSync(editable.doc, () => asTether(() => key(editable, editable.element, 'a', 65, true)));
    return;
  }
  await selectAndSync(editable.doc, () => {
    selection.removeAllRanges();
    selection.addRange(contentRange(editable, whole));
  });
}

function view(editable: Editable): Window & typeof globalThis {
  return (editable.buffer?.doc.defaultView ?? editable.doc.defaultView ?? window) as Window & typeof globalThis;
}

function transfer(editable: Editable, payload: Payload): DataTransfer {
  return pageTransfer(view(editable), {
    strings: [
      ['text/plain', payload.pasteText ?? payload.text],
      ['text/html', editorMarkup(editable, payload.html)],
    ],
  });
}

/** Tether's HTML as the editor keeps it: headings at its levels (headingLevels.ts), then its own markup where its descriptor says. */
function editorMarkup(editable: Editable, html: string): string {
  const family = familyOf(editable);
  if (html === '' || family.model === 'value') return html;
  const body = editable.doc.implementation.createHTMLDocument('').body;
  body.innerHTML = html;
  mapHeadings(body, family.headings);
  family.pasteMarkup?.(body);
  return body.innerHTML;
}

/**
 * What the editor's model holds: read by its schema where its descriptor can (a block editor
 * keeps markup inside one block only as that block's text), else as the field reads back.
 * Every write is verified against this, never against the DOM alone.
 */
export function modelText(editable: Editable): string {
  const read = familyOf(editable).modelText;
  return read ? read(editable.element) : readEditable(editable);
}

/** Where events go: the element holding the caret, inside the editor. */
function eventTarget(editable: Editable): HTMLElement {
  if (editable.buffer) return editable.buffer.body;
  const anchor = editable.doc.getSelection()?.anchorNode ?? null;
  const element = anchor ? (anchor.nodeType === Node.ELEMENT_NODE ? (anchor as HTMLElement) : anchor.parentElement) : null;
  return element && editable.element.contains(element) ? element : editable.element;
}

function dispatchPaste(editable: Editable, payload: Payload): void {
  eventTarget(editable).dispatchEvent(pasteEvent(view(editable), transfer(editable, payload)));
}

function targetRanges(editable: Editable): StaticRange[] {
  const selection = editable.doc.getSelection();
  if (!selection || selection.rangeCount === 0) return [];
  const range = selection.getRangeAt(0);
  return [
    new (view(editable).StaticRange)({
      startContainer: range.startContainer,
      startOffset: range.startOffset,
      endContainer: range.endContainer,
      endOffset: range.endOffset,
    }),
  ];
}

function dispatchBeforeInput(editable: Editable, mode: Mode, payload: Payload): void {
  const init: InputEventInit = { bubbles: true, cancelable: true, composed: true, targetRanges: targetRanges(editable) };
  if (mode === 'clear') Object.assign(init, { inputType: familyOf(editable).clearInputType ?? 'deleteContentBackward' });
  else if (!payload.text.includes('\n') && payload.format === 'text') Object.assign(init, { inputType: 'insertText', data: payload.text });
  else Object.assign(init, { inputType: 'insertFromPaste', dataTransfer: transfer(editable, payload) });
  eventTarget(editable).dispatchEvent(new (view(editable).InputEvent)('beforeinput', init));
}

function key(editable: Editable, target: HTMLElement, keyName: string, keyCode: number, ctrl = false): void {
  const init: KeyboardEventInit & { keyCode: number; which: number } = {
    key: keyName,
    code: keyName.length === 1 ? `Key${keyName.toUpperCase()}` : keyName,
    keyCode,
    which: keyCode,
    ctrlKey: ctrl,
    bubbles: true,
    cancelable: true,
    composed: true,
  };
  target.dispatchEvent(new (view(editable).KeyboardEvent)('keydown', init));
  target.dispatchEvent(new (view(editable).KeyboardEvent)('keyup', init));
}

function execInsert(editable: Editable, text: string): boolean {
  const doc = editable.buffer?.doc ?? editable.doc;
  if (text === '') return doc.execCommand('delete', false);
  if (isTextControl(editable) || !text.includes('\n')) return doc.execCommand('insertText', false, text);
  // In rich text a newline is a new paragraph: insert line by line, as typing Enter would.
  let ok = true;
  text.split('\n').forEach((line, index) => {
    if (index > 0) ok = doc.execCommand('insertParagraph', false) && ok;
    if (line !== '') ok = doc.execCommand('insertText', false, line) && ok;
  });
  return ok;
}

function nativeSet(editable: Editable, value: string): void {
  const element = editable.element as HTMLInputElement;
  const prototype = Object.getPrototypeOf(element) as object;
  const setter = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  if (setter) setter.call(element, value);
  else element.value = value;
  element.dispatchEvent(new (view(editable).InputEvent)('input', { bubbles: true, inputType: 'insertReplacementText', data: value }));
  element.dispatchEvent(new (view(editable).Event)('change', { bubbles: true }));
}

async function run(path: PathName, request: DeliveryRequest): Promise<Ran> {
  const { editable, mode, payload } = request;
  const whole = mode !== 'append';
  const clearing = mode === 'clear';
  if (path === 'block-store') {
    // The editor's own store (no selection, no focus): only a fill or a clear, which replace everything.
    const fill = familyOf(editable).storeFill;
    if (!fill || !whole) return { written: false, problem: 'this editor’s store is written only by a fill or a clear' };
    return fill(editable, clearing ? '' : editorMarkup(editable, payload.html), clearing ? '' : (payload.pasteText ?? payload.text));
  }
  if (path === 'setter') {
    asTether(() => nativeSet(editable, request.setterValue));
    return;
  }
  focusEditable(editable);
  if (path.startsWith('buffer-')) {
    // The editor keeps its caret in its own model; move it as the person's keys would.
    const body = editable.buffer?.body;
    if (!body) return;
    asTether(() => (whole ? key(editable, body, 'a', 65, true) : key(editable, body, 'End', 35, true)));
    if (path === 'buffer-keys') asTether(() => key(editable, body, 'Backspace', 8));
    else if (path === 'buffer-paste') asTether(() => dispatchPaste(editable, payload));
    else asTether(() => execInsert(editable, payload.text));
    return;
  }
  await placeSelection(editable, whole);
  switch (path) {
    case 'execCommand':
      asTether(() => execInsert(editable, clearing ? '' : payload.text));
      return;
    case 'insertHTML':
      asTether(() => editable.doc.execCommand('insertHTML', false, editorMarkup(editable, payload.html)));
      return;
    case 'paste':
      asTether(() => dispatchPaste(editable, clearing ? { ...payload, text: '', html: '<p><br></p>' } : payload));
      return;
    case 'beforeinput':
      asTether(() => dispatchBeforeInput(editable, mode, payload));
      return;
    case 'keys':
      asTether(() => key(editable, eventTarget(editable), 'Backspace', 8));
      return;
  }
}

function restoreFocus(previous: Element | null): void {
  if (previous && previous !== document.body && previous instanceof HTMLElement) previous.focus({ preventScroll: true });
}

export function markupKind(mode: Mode, payload: Payload, editable: Editable): 'text' | 'html' | 'clear' {
  if (mode === 'clear') return 'clear';
  return payload.format === 'text' || isTextControl(editable) ? 'text' : 'html';
}

/**
 * Until the page has been idle once, or has drawn a frame, or both in turn: an editor that
 * finishes a write in an idle callback (Editor.js fills a pasted block there), an animation frame
 * (Trix renders its document there), or an idle callback that asks for a frame (Editor.js's own
 * paragraph tool sets a pasted paragraph's text in requestAnimationFrame inside that idle
 * callback) may not have by the time its DOM was quiet for settle. Ours runs after every callback
 * the page asked for before it; a hidden page draws no frames, hence the time limit.
 */
export function pageFinished(editable: Editable, finishes: 'idle' | 'frame' | 'idle-frame'): Promise<void> {
  const page = view(editable);
  return new Promise((resolve) => {
    const timer = page.setTimeout(resolve, 2000);
    const done = () => {
      page.clearTimeout(timer);
      resolve();
    };
    const frame = () => page.requestAnimationFrame(() => page.setTimeout(done, 0));
    if (finishes === 'idle') page.requestIdleCallback(done);
    else if (finishes === 'idle-frame') page.requestIdleCallback(frame);
    else frame();
  });
}

/**
 * Until the editor's own animations of what was written have run (bounded): Editor.js fades each
 * new block in from opacity 0 (`.ce-block`, 0.3 s), and an inspect right after a fill that
 * replaced every block would find no block a person can see (reachable.ts), so no field.
 */
async function animationsDone(editable: Editable): Promise<void> {
  const running = editable.element.getAnimations?.({ subtree: true }) ?? [];
  if (running.length === 0) return;
  const page = view(editable);
  await Promise.race([
    Promise.all(running.map((animation) => animation.finished.catch(() => undefined))),
    new Promise((resolve) => page.setTimeout(resolve, 1000)),
  ]);
}

/** Writes through the family's paths in order; returns what the field holds after. */
export async function deliver(request: DeliveryRequest): Promise<Delivery> {
  const { editable } = request;
  const before = modelText(editable);
  const previousFocus = document.activeElement;
  const tried: PathName[] = [];
  const watched: Node[] = [editable.element, ...(editable.buffer ? [editable.buffer.body] : [])];
  try {
    for (const path of pathsFor(editable, markupKind(request.mode, request.payload, editable), request.mode)) {
      tried.push(path);
      const ran = await run(path, request);
      if (ran && !ran.written) return { path: null, tried, text: modelText(editable), verified: false, why: ran.problem, sent: false };
      // One idle period may come before the editor has queued every block's callback: a few more, until it reads right.
      const { finishes } = familyOf(editable);
      for (let round = 0; finishes && round < 5 && !request.accept(modelText(editable)); round++) await pageFinished(editable, finishes);
      const shown = await settle(watched, () => request.accept(modelText(editable)));
      const text = modelText(editable);
      // A path that read the store back: what it holds must be right too, and nothing went wrong.
      const stored = ran === undefined || (ran.problem === undefined && ran.storeText !== null && request.accept(ran.storeText));
      const verified = shown && stored;
      if (ran?.written && !verified) {
        const why = ran.problem ?? (shown ? 'the page shows the text, but the editor’s store holds other text' : undefined);
        return { path, tried, text, verified: false, ...(why ? { why } : {}) };
      }
      if (verified) {
        await animationsDone(editable);
        return { path, tried, text, verified };
      }
      // The editor ignored this path: the next one cannot write twice. It changed something else: stop.
      if (!sameFieldText(text, before)) return { path, tried, text, verified: false };
    }
    return { path: null, tried, text: modelText(editable), verified: false };
  } finally {
    restoreFocus(previousFocus);
  }
}
