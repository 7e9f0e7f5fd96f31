/**
 * What the person is doing in this page, from trusted events only (a page script can dispatch
 * events, but never with `isTrusted`): which fields they edited, whether they are typing right
 * now, and whether an IME composition is open. Tether's own writes are excluded.
 *
 * A trusted `input` alone proves nothing: a page's own `execCommand` makes trusted input events
 * too, and a page doing that in a loop would otherwise look like a person typing forever. So the
 * person counts as typing only after trusted keyboard or composition events, and an input counts
 * as the person's edit only when it follows their own gesture in that field (a key, a
 * composition, a paste or a drop); any other input is the page editing itself.
 */

const TYPING_WINDOW_MS = 1500;
/** How long after a key, composition, paste or drop an input in that field is still the person's. */
const GESTURE_WINDOW_MS = 1000;

interface FieldActivity {
  /** The person's last edit (a trusted input right after their own gesture). */
  editedAt: number;
  /** The person's last key or composition event: typing. */
  lastKeyAt: number;
  /** The person's last gesture that edits: key, composition, paste, drop. */
  gestureAt: number;
  /** The last trusted input that followed no gesture of the person: the page's own script. */
  pageEditedAt: number;
}

const activity = new WeakMap<Element, FieldActivity>();
const composing = new WeakSet<Element>();
const watchedDocuments = new WeakSet<Document>();
let tetherWriting = 0;
/**
 * The editable the person last keyed or composed in, for a field that is not one editable but holds
 * several (the WordPress block editor: each block's RichText is its own contenteditable inside the
 * field's WritingFlow element). One at a time: a person composes in one place.
 */
let lastKeyed: { root: Element; at: number } | null = null;
let composingIn: Element | null = null;

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

function entryOf(root: Element): FieldActivity {
  let entry = activity.get(root);
  if (!entry) {
    entry = { editedAt: 0, lastKeyAt: 0, gestureAt: 0, pageEditedAt: 0 };
    activity.set(root, entry);
  }
  return entry;
}

/** Whose edit a trusted input is, from the last gesture of the person in that field. */
export function inputAuthor(gestureAt: number, now: number): 'person' | 'page' {
  return gestureAt > 0 && now - gestureAt <= GESTURE_WINDOW_MS ? 'person' : 'page';
}

type PersonEvent = 'key' | 'composition' | 'paste' | 'drop';

function personDid(target: EventTarget | null, what: PersonEvent): void {
  const root = editableRoot(target);
  if (!root) return;
  const entry = entryOf(root);
  const now = Date.now();
  entry.gestureAt = now;
  if (what === 'key' || what === 'composition') {
    entry.lastKeyAt = now;
    lastKeyed = { root, at: now };
  }
}

function onInput(target: EventTarget | null): void {
  const root = editableRoot(target);
  if (!root) return;
  const entry = entryOf(root);
  const now = Date.now();
  if (composing.has(root) || inputAuthor(entry.gestureAt, now) === 'person') {
    entry.editedAt = now;
    entry.lastKeyAt = Math.max(entry.lastKeyAt, now);
  } else {
    entry.pageEditedAt = now;
  }
}

/** Starts watching a document (the page's, or a same-origin editor iframe's). Idempotent. */
export function watchDocument(doc: Document): void {
  if (watchedDocuments.has(doc)) return;
  watchedDocuments.add(doc);
  const options = { capture: true, passive: true } as const;
  const trusted = (listener: (event: Event) => void) => (event: Event) => {
    if (event.isTrusted && tetherWriting === 0) listener(event);
  };
  doc.addEventListener(
    'input',
    trusted((event) => onInput(event.target)),
    options,
  );
  doc.addEventListener(
    'keydown',
    trusted((event) => personDid(event.target, 'key')),
    options,
  );
  doc.addEventListener(
    'paste',
    trusted((event) => personDid(event.target, 'paste')),
    options,
  );
  doc.addEventListener(
    'drop',
    trusted((event) => personDid(event.target, 'drop')),
    options,
  );
  doc.addEventListener(
    'compositionstart',
    trusted((event) => {
      const root = editableRoot(event.target);
      if (root) composing.add(root);
      composingIn = root;
      personDid(event.target, 'composition');
    }),
    options,
  );
  doc.addEventListener(
    'compositionupdate',
    trusted((event) => personDid(event.target, 'composition')),
    options,
  );
  doc.addEventListener(
    'compositionend',
    trusted((event) => {
      const root = editableRoot(event.target);
      if (!root) return;
      composing.delete(root);
      if (composingIn === root) composingIn = null;
      personDid(event.target, 'composition');
      entryOf(root).editedAt = Date.now();
    }),
    options,
  );
}

export function editedByPerson(element: Element): boolean {
  return (activity.get(element)?.editedAt ?? 0) > 0;
}

/** Who edited this field last, as far as trusted events tell: the person, the page's script, or nobody seen. */
export function lastEditBy(element: Element): 'person' | 'page' | null {
  const entry = activity.get(element);
  if (!entry || (entry.editedAt === 0 && entry.pageEditedAt === 0)) return null;
  return entry.pageEditedAt > entry.editedAt ? 'page' : 'person';
}

/** The person is typing in this field now, or has an IME composition open in it. */
export function personIsTyping(element: Element, now = Date.now()): 'composing' | 'typing' | null {
  if (composing.has(element)) return 'composing';
  // An editable inside the field (a block's RichText): the field is in use too.
  if (composingIn !== null && composingIn !== element && composingIn.isConnected && element.contains(composingIn)) return 'composing';
  const inside = lastKeyed !== null && lastKeyed.root !== element && element.contains(lastKeyed.root) ? lastKeyed.at : 0;
  const last = Math.max(activity.get(element)?.lastKeyAt ?? 0, inside);
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
