/**
 * The events an image path sends an editor, as a person's paste and keys would, and the waits on
 * what the editor does then (image.ts, markdownImage.ts).
 */
import type { Editable } from '../editables.ts';
import { pasteEvent } from './pasteEvent.ts';
import { settle, waitUntil } from './settle.ts';

export function view(editable: Editable): Window & typeof globalThis {
  return (editable.doc.defaultView ?? window) as Window & typeof globalThis;
}

export function focus(editable: Editable): void {
  if (editable.frame) {
    editable.frame.focus();
    editable.doc.defaultView?.focus();
  }
  editable.element.focus({ preventScroll: true });
}

export function eventTarget(editable: Editable): HTMLElement {
  const anchor = editable.doc.getSelection()?.anchorNode ?? null;
  const element = anchor ? (anchor.nodeType === Node.ELEMENT_NODE ? (anchor as HTMLElement) : anchor.parentElement) : null;
  return element && editable.element.contains(element) ? element : editable.element;
}

export function paste(editable: Editable, data: DataTransfer): void {
  const win = view(editable);
  eventTarget(editable).dispatchEvent(pasteEvent(win, data));
}

/** The editor's own undo, as a person's Ctrl+Z (every family with an upload path binds it). */
export function undoKeys(editable: Editable): void {
  const win = view(editable);
  const init = { key: 'z', code: 'KeyZ', keyCode: 90, which: 90, ctrlKey: true, bubbles: true, cancelable: true, composed: true };
  const target = eventTarget(editable);
  target.dispatchEvent(new win.KeyboardEvent('keydown', init));
  target.dispatchEvent(new win.KeyboardEvent('keyup', init));
}

/** Waits until `check` answers, or the deadline passes (then `check`'s last answer): settle.ts's waitUntil on the field. */
export function waitFor<T>(editable: Editable, check: () => T | null, deadlineMs: number): Promise<T | null> {
  return waitUntil(editable.element, check, deadlineMs);
}

/** Waits until nothing under the field has changed for `quietMs` (an editor's history grouping), at most `limitMs`. */
export async function waitQuiet(editable: Editable, quietMs: number, limitMs: number): Promise<void> {
  await settle([editable.element], () => false, { quietMs, deadlineMs: limitMs });
}
