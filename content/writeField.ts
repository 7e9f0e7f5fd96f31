/**
 * Safe writes that keep the person's undo and the page framework's state.
 *
 * First choice: focus the field, select what the step replaces, and `execCommand('insertText')`.
 * The browser then records the edit in its undo stack (Ctrl+Z undoes it) and fires the same
 * trusted `beforeinput`/`input` events typing would, which React, Quill and ProseMirror all listen
 * to. When that does not take, the fallback is the element's native value setter plus input and
 * change events (React's value tracker sees those). Either way the text is read back afterwards:
 * success means the page's own model kept it, not that a call returned.
 */
import { normalizeFieldText, sameFieldText } from '../shared/fieldText.ts';
import { readEditable, readEditableHtml, type Editable } from './editables.ts';
import { asTether } from './personActivity.ts';

export type WriteMethod = 'insertText' | 'setter' | 'select' | 'restoreHtml';

export interface WriteOutcome {
  method: WriteMethod;
  verified: boolean;
  text: string;
}

export interface FieldSnapshot {
  text: string;
  html: string | null;
}

/** A macrotask that background tabs do not throttle (unlike setTimeout), so frameworks can settle. */
function settle(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

function isTextControl(editable: Editable): boolean {
  return editable.kind === 'input' || editable.kind === 'textarea';
}

function focusEditable(editable: Editable): void {
  if (editable.frame) {
    editable.frame.focus();
    editable.doc.defaultView?.focus();
  }
  editable.element.focus({ preventScroll: true });
}

/** Selects what the write replaces: everything (fill, clear) or nothing at the end (append). */
function placeSelection(editable: Editable, whole: boolean): void {
  if (isTextControl(editable)) {
    const control = editable.element as HTMLInputElement;
    if (whole) control.select();
    else control.setSelectionRange(control.value.length, control.value.length);
    return;
  }
  const selection = editable.doc.getSelection();
  if (!selection) return;
  const range = editable.doc.createRange();
  range.selectNodeContents(editable.element);
  if (!whole) range.collapse(false);
  selection.removeAllRanges();
  selection.addRange(range);
}

function execInsert(editable: Editable, text: string): boolean {
  const doc = editable.doc;
  return asTether(() => {
    if (text === '') return doc.execCommand('delete', false);
    if (isTextControl(editable) || !text.includes('\n')) return doc.execCommand('insertText', false, text);
    // In rich text a newline is a new paragraph: insert line by line, as typing Enter would.
    const lines = text.split('\n');
    let ok = true;
    lines.forEach((line, index) => {
      if (index > 0) ok = doc.execCommand('insertParagraph', false) && ok;
      if (line !== '') ok = doc.execCommand('insertText', false, line) && ok;
    });
    return ok;
  });
}

function nativeSet(editable: Editable, value: string): void {
  const element = editable.element as HTMLInputElement;
  const prototype = Object.getPrototypeOf(element) as object;
  const setter = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  if (setter) setter.call(element, value);
  else element.value = value;
  const view = editable.doc.defaultView ?? window;
  element.dispatchEvent(new view.InputEvent('input', { bubbles: true, inputType: 'insertReplacementText', data: value }));
  element.dispatchEvent(new view.Event('change', { bubbles: true }));
}

function restoreFocus(previous: Element | null): void {
  if (previous && previous !== document.body && previous instanceof HTMLElement) previous.focus({ preventScroll: true });
}

/** fill / append / clear one text field; the expected result is checked after the page settles. */
export async function writeText(editable: Editable, mode: 'fill' | 'append' | 'clear', text: string): Promise<WriteOutcome> {
  const before = readEditable(editable);
  const expected = mode === 'fill' ? text : mode === 'append' ? before + text : '';
  const previousFocus = document.activeElement;
  focusEditable(editable);
  placeSelection(editable, mode !== 'append');
  const inserted = execInsert(editable, mode === 'clear' ? '' : text);
  await settle();
  let method: WriteMethod = 'insertText';
  if (!inserted || !sameFieldText(readEditable(editable), expected)) {
    if (isTextControl(editable)) {
      method = 'setter';
      nativeSet(editable, expected);
      await settle();
    }
  }
  restoreFocus(previousFocus);
  const after = readEditable(editable);
  return { method, verified: sameFieldText(after, expected), text: after };
}

export async function selectValue(editable: Editable, value: string): Promise<WriteOutcome> {
  const select = editable.element as HTMLSelectElement;
  const option = Array.from(select.options).find((candidate) => candidate.value === value || candidate.text.trim() === value);
  if (!option) return { method: 'select', verified: false, text: select.value };
  nativeSet(editable, option.value);
  await settle();
  return { method: 'select', verified: select.value === option.value, text: select.value };
}

export function snapshotField(editable: Editable): FieldSnapshot {
  return { text: readEditable(editable), html: readEditableHtml(editable) };
}

/** Puts a field back as it was before a plan touched it (rollback), formatting included. */
export async function restoreField(editable: Editable, snapshot: FieldSnapshot): Promise<boolean> {
  if (editable.kind === 'select') return (await selectValue(editable, snapshot.text)).verified;
  if (snapshot.html !== null && normalizeFieldText(snapshot.text) !== '') {
    focusEditable(editable);
    placeSelection(editable, true);
    asTether(() => editable.doc.execCommand('insertHTML', false, snapshot.html ?? ''));
    await settle();
    if (sameFieldText(readEditable(editable), snapshot.text)) return true;
  }
  return (await writeText(editable, normalizeFieldText(snapshot.text) === '' ? 'clear' : 'fill', snapshot.text)).verified;
}
