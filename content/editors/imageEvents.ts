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

/**
 * Waits until `check` answers (on every change under the field, and at least every 100 ms, as
 * uploads finish off the page's main thread), or the deadline passes (null). The check may read
 * asynchronously (CodeMirror's state in the main world, markdownImage.ts): one look at a time.
 */
export function waitForRead<T>(editable: Editable, check: () => Promise<T | null>, deadlineMs: number): Promise<T | null> {
  return new Promise((resolve) => {
    let done = false;
    let looking = false;
    let again = false;
    const finish = (value: T | null) => {
      if (done) return;
      done = true;
      observer.disconnect();
      clearInterval(timer);
      clearTimeout(deadline);
      resolve(value);
    };
    const look = () => {
      if (done) return;
      if (looking) {
        again = true;
        return;
      }
      looking = true;
      void check().then(
        (found) => {
          looking = false;
          if (found !== null) finish(found);
          else if (again) {
            again = false;
            look();
          }
        },
        () => {
          looking = false;
        },
      );
    };
    const observer = new MutationObserver(look);
    observer.observe(editable.element, { childList: true, subtree: true, attributes: true, characterData: true });
    const timer = setInterval(look, 100);
    const deadline = setTimeout(() => {
      void check().then(finish, () => finish(null));
    }, deadlineMs);
    look();
  });
}

/** Waits until `check` answers, or the deadline passes (then `check`'s last answer): settle.ts's waitUntil on the field. */
export function waitFor<T>(editable: Editable, check: () => T | null, deadlineMs: number): Promise<T | null> {
  return waitUntil(editable.element, check, deadlineMs);
}

/** Waits until nothing under the field has changed for `quietMs` (an editor's history grouping), at most `limitMs`. */
export async function waitQuiet(editable: Editable, quietMs: number, limitMs: number): Promise<void> {
  await settle([editable.element], () => false, { quietMs, deadlineMs: limitMs });
}
