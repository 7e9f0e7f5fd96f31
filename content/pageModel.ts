/**
 * The page as Tether understands it: named fields, named actions, readable regions and sign-in,
 * found by the site's adapter when there is one, or inferred by the generic adapter otherwise.
 * The adapters come in their own module (siteReader.ts), only into pages they claim; their reading
 * is checked against the generic one there.
 */
import type { SignIn } from '../shared/page/pageProtocol.ts';
import { genericActionKind } from './actionWords.ts';
import { EDITABLE_CANDIDATES, editableFrom, isHiddenInput, isVisible, type Editable } from './editables.ts';
import { controlOf, editorContainers, isEditorChrome } from './editorChrome.ts';
import { isFormattingControl } from './formattingControls.ts';
import { isReachable } from './reachable.ts';
import { repeatKey } from './repeatedControls.ts';
import { sitesSlot } from './moduleSlot.ts';
import type { LocatedAction, LocatedField, PageModel, ReadableRegion } from './pageTypes.ts';

export type { LocatedAction, LocatedField, PageModel, ReadableRegion } from './pageTypes.ts';

/** What a person reads there; zero-width characters are none of it (SmartEditor ONE fills an empty paragraph with U+200B). */
export function textOf(element: Element | null | undefined): string {
  return ((element as HTMLElement | null | undefined)?.innerText ?? element?.textContent ?? '').replace(/[\u200b\u2060\ufeff]/g, '').trim();
}

export function elementRegion(find: () => Element | null): ReadableRegion {
  return { text: () => textOf(find()), element: find };
}

const TITLE_HINT = /title|subject|제목/i;
const SIGN_OUT = /^(log ?out|sign ?out|로그아웃)$/i;
const SIGN_IN = /^(log ?in|sign ?in|로그인)$/i;
/** What the text of a sign-in or sign-out link holds at least. */
const SIGN_WORDS = /log|sign|로그/i;
const ACCOUNT_SELECTORS = ['[data-account]', '.account-name', '.user-name', '.username', '.nickname', '.profile-name'];

function slug(text: string, fallback: string): string {
  const cleaned = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  return cleaned || fallback;
}

function uniqueName(wanted: string, taken: Set<string>): string {
  let name = wanted;
  for (let suffix = 2; taken.has(name); suffix += 1) name = `${wanted}_${suffix}`;
  taken.add(name);
  return name;
}

function area(element: Element): number {
  const target = element.tagName.toLowerCase() === 'body' ? (element.ownerDocument.defaultView?.frameElement ?? element) : element;
  const rect = target.getBoundingClientRect();
  return rect.width * rect.height;
}

function labelFor(element: Element): string {
  const html = element as HTMLInputElement;
  const id = html.id;
  // A file chooser's label is what a person clicks (often the label it sits in).
  const explicit = (id ? element.ownerDocument.querySelector(`label[for="${CSS.escape(id)}"]`) : null) ?? (html.type === 'file' ? html.labels?.[0] : null);
  return (textOf(explicit) || element.getAttribute('aria-label') || element.getAttribute('placeholder') || element.getAttribute('name') || id || '').slice(
    0,
    200,
  );
}

/** An editable the generic scan found, and the candidate element it found it from. */
export interface GenericEditable {
  element: Element;
  editable: Editable;
}

/**
 * The editables a person can see and reach, one per editor, in document order: what the generic
 * adapter names fields after (an editor's focus trap or hidden search box is not one: reachable.ts).
 * Reachability is checked last, only for candidates that hold an editable (radios,
 * checkboxes and frames without an editor need no layout read); every check is a pure read, so the
 * order does not change which editables are found. Editables `leaveOut` picks are left out before
 * their visibility is read (with every candidate that leads to the same editor).
 */
export function genericEditables(doc: Document, leaveOut?: (editable: Editable) => boolean): GenericEditable[] {
  const editables: GenericEditable[] = [];
  const seen = new Set<Element>();
  for (const element of Array.from(doc.querySelectorAll(EDITABLE_CANDIDATES))) {
    if (isHiddenInput(element)) continue;
    const editable = editableFrom(element);
    if (!editable || seen.has(editable.element)) continue;
    if (editable.kind === 'contenteditable' && editable.element.parentElement?.isContentEditable) continue;
    // A file chooser is often hidden behind its label (an "attach" button): the person reaches it there.
    const reached = isReachable(element) || (editable.kind === 'file' && Array.from((element as HTMLInputElement).labels ?? []).some(isReachable));
    if (leaveOut?.(editable) || !reached) continue;
    seen.add(editable.element);
    editables.push({ element, editable });
  }
  return editables;
}

/** The generic adapter's fields: a title input, the largest text area or editor as body, then the rest. */
export function inferFields(doc: Document, taken: Set<string>): LocatedField[] {
  return namedFields(genericEditables(doc), taken);
}

/** Names and labels the generic editables: the title, the body, then the rest (30 at most). */
export function namedFields(editables: GenericEditable[], taken: Set<string>): LocatedField[] {
  const fields: LocatedField[] = [];
  const title = editables.find(
    ({ element, editable }) =>
      editable.kind === 'input' &&
      TITLE_HINT.test(
        `${element.getAttribute('name') ?? ''} ${element.id} ${element.getAttribute('placeholder') ?? ''} ${element.getAttribute('aria-label') ?? ''}`,
      ),
  );
  if (title)
    fields.push({
      name: uniqueName('title', taken),
      label: labelFor(title.element) || 'Title',
      editable: title.editable,
      draftIfNonEmpty: false,
      located: title.element,
    });
  const bodies = editables
    .filter(({ editable }) => editable.kind !== 'input' && editable.kind !== 'select' && editable.kind !== 'file')
    .sort((a, b) => area(b.element) - area(a.element));
  const body = bodies[0];
  if (body)
    fields.push({
      name: uniqueName('body', taken),
      label: labelFor(body.element) || 'Body',
      editable: body.editable,
      draftIfNonEmpty: false,
      located: body.element,
    });
  for (const { element, editable } of editables) {
    if (element === title?.element || element === body?.element || fields.length >= 30) continue;
    const wanted = slug(element.getAttribute('name') ?? element.id ?? '', `field_${fields.length + 1}`);
    fields.push({ name: uniqueName(wanted, taken), label: labelFor(element), editable, draftIfNonEmpty: false, located: element });
  }
  return fields;
}

/**
 * The generic adapter's actions: each button once, without editor chrome (editorChrome.ts), at
 * most 30. A control whose label repeats (a Reply under every comment) is listed once, with how
 * many more the page has, shown or not; its repeats are told by their text and tag and their
 * parent's tag, with no layout read (a page of 5,000 comments has 15,000 of them). `taken`: the
 * field names, which no action shares.
 */
export function inferActions(doc: Document, taken: Set<string> = new Set()): LocatedAction[] {
  const actionNames = new Set(taken);
  const actions: LocatedAction[] = [];
  const byKey = new Map<string, LocatedAction>();
  const keys = new Map<string, string>();
  const containers = editorContainers(doc);
  for (const element of Array.from(doc.querySelectorAll<HTMLElement>('button, input[type="submit"], [role="button"]'))) {
    const text = element.textContent || (element as HTMLInputElement).value || element.getAttribute('aria-label') || '';
    // Most repeats carry the very same text ("Reply"): its key is worked out once.
    let words = keys.get(text);
    if (words === undefined) keys.set(text, (words = repeatKey(text)));
    // The same words in the same kind of place: a toolbar's "Code" is not the page's "Code" tab repeated.
    const key = `${words} ${element.localName} ${element.parentElement?.localName ?? ''}`;
    const listed = words ? byKey.get(key) : undefined;
    if (listed) {
      listed.repeated = (listed.repeated ?? 0) + 1;
      continue;
    }
    if (actions.length >= 30 || !isVisible(element)) continue;
    const label = (textOf(element) || (element as HTMLInputElement).value || element.getAttribute('aria-label') || '').slice(0, 200);
    if (!label || isEditorChrome(controlOf(element, label, isFormattingControl(element), containers))) continue;
    const kind = genericActionKind(label);
    const action: LocatedAction = { name: uniqueName(slug(label, 'action'), actionNames), kind, label, element };
    actions.push(action);
    byKey.set(key, action);
  }
  return actions;
}

export function inferReadable(doc: Document): Map<string, ReadableRegion> {
  const readable = new Map<string, ReadableRegion>();
  readable.set('title', { text: () => doc.title, element: () => null });
  const main = doc.querySelector('article, main, [role="main"]');
  if (main)
    readable.set(
      'main',
      elementRegion(() => main),
    );
  return readable;
}

export function inferSignIn(doc: Document): SignIn {
  // Only links and buttons whose words could say it: innerText lays the page out, and a post with
  // 5,000 comments has 15,000 Reply / Like / Report buttons (0.14 s of innerText there). Their
  // textContent holds every character their innerText can show, so the filter drops none.
  const clickable = Array.from(doc.querySelectorAll('a, button')).filter((element) => SIGN_WORDS.test(element.textContent ?? ''));
  // Each one's text is read once, for both tests below.
  const texts: Array<string | undefined> = [];
  const textAt = (index: number): string => (texts[index] ??= textOf(clickable[index]));
  let signIn: SignIn = { state: 'unknown', account: null, via: 'generic' };
  if (clickable.some((_, index) => SIGN_OUT.test(textAt(index)))) {
    const account = ACCOUNT_SELECTORS.map((selector) => doc.querySelector(selector)).find((element) => element && textOf(element));
    signIn = { state: 'signed_in', account: account ? textOf(account) : null, via: 'generic:sign-out-link' };
  } else if (clickable.some((_, index) => SIGN_IN.test(textAt(index)))) {
    signIn = { state: 'signed_out', account: null, via: 'generic:sign-in-link' };
  }
  return signIn;
}

/** The generic adapter: infers a title and a body, other fields, actions and sign-in on any site. `actions: false` leaves actions unread (a reading that needs none). */
export function inferred(doc: Document, actions = true): PageModel {
  const fields = inferFields(doc, new Set());
  return {
    adapterId: 'generic',
    fields,
    actions: actions ? inferActions(doc, new Set(fields.map((field) => field.name))) : [],
    readable: inferReadable(doc),
    signIn: inferSignIn(doc),
    draftBanner: false,
  };
}

/** The page as the adapter that claims it reads it (once the site adapters are here), or as the generic model does. */
export function readPageModel(doc: Document = document, actions = true): PageModel {
  return sitesSlot.module()?.read(doc) ?? inferred(doc, actions);
}
