/**
 * What the person is doing in this page, from trusted events only (a page script can dispatch
 * events, but never with `isTrusted`): which fields they edited, whether they are typing right
 * now, and whether an IME composition is open. Tether's own writes are excluded.
 */

const TYPING_WINDOW_MS = 1500;

interface FieldActivity {
  editedAt: number;
  lastKeyAt: number;
}

const activity = new WeakMap<Element, FieldActivity>();
const composing = new WeakSet<Element>();
const watchedDocuments = new WeakSet<Document>();
let tetherWriting = 0;

function editableRoot(target: EventTarget | null): Element | null {
  if (!target || !(target as Node).nodeType) return null;
  const node = target as Node;
  const element = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : node.parentElement;
  if (!element) return null;
  const doc = element.ownerDocument;
  // An iframe editor's body (designMode) is the field itself.
  if (doc.designMode === 'on') return doc.body;
  const tagName = element.tagName.toLowerCase();
  if (tagName === 'input' || tagName === 'textarea' || tagName === 'select') return element;
  let root: HTMLElement | null = element as HTMLElement;
  while (root?.parentElement && root.parentElement.isContentEditable) root = root.parentElement;
  return root;
}

function touch(target: EventTarget | null, key: 'editedAt' | 'lastKeyAt'): void {
  const root = editableRoot(target);
  if (!root) return;
  const now = Date.now();
  const entry = activity.get(root) ?? { editedAt: 0, lastKeyAt: 0 };
  entry[key] = now;
  if (key === 'editedAt') entry.lastKeyAt = Math.max(entry.lastKeyAt, now);
  activity.set(root, entry);
}

/** Starts watching a document (the page's, or a same-origin editor iframe's). Idempotent. */
export function watchDocument(doc: Document): void {
  if (watchedDocuments.has(doc)) return;
  watchedDocuments.add(doc);
  const options = { capture: true, passive: true } as const;
  doc.addEventListener(
    'input',
    (event) => {
      if (event.isTrusted && tetherWriting === 0) touch(event.target, 'editedAt');
    },
    options,
  );
  doc.addEventListener(
    'keydown',
    (event) => {
      if (event.isTrusted && tetherWriting === 0) touch(event.target, 'lastKeyAt');
    },
    options,
  );
  doc.addEventListener(
    'compositionstart',
    (event) => {
      const root = editableRoot(event.target);
      if (event.isTrusted && root) composing.add(root);
    },
    options,
  );
  doc.addEventListener(
    'compositionend',
    (event) => {
      const root = editableRoot(event.target);
      if (event.isTrusted && root) {
        composing.delete(root);
        touch(event.target, 'editedAt');
      }
    },
    options,
  );
}

export function editedByPerson(element: Element): boolean {
  return (activity.get(element)?.editedAt ?? 0) > 0;
}

/** The person is typing in this field now, or has an IME composition open in it. */
export function personIsTyping(element: Element, now = Date.now()): 'composing' | 'typing' | null {
  if (composing.has(element)) return 'composing';
  const last = activity.get(element)?.lastKeyAt ?? 0;
  return now - last < TYPING_WINDOW_MS ? 'typing' : null;
}

/**
 * Runs one of Tether's own edits so its input events are not mistaken for the person's. Edits
 * (execCommand) fire their events synchronously, so the window is exactly the call.
 */
export function asTether<T>(edit: () => T): T {
  tetherWriting += 1;
  try {
    return edit();
  } finally {
    tetherWriting -= 1;
  }
}
