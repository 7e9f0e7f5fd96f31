/**
 * The page as Tether understands it: named fields, named actions, readable regions and sign-in,
 * found by the site's adapter when there is one, or inferred by the generic adapter otherwise.
 */
import type { ActionKind, SignIn } from '../shared/pageProtocol.ts';
import { genericActionKind } from './actionWords.ts';
import { adapterFor } from './adapters/index.ts';
import { EDITABLE_CANDIDATES, editableFrom, isVisible, type Editable } from './editables.ts';
import { isFormattingControl } from './formattingControls.ts';
import type { SiteAdapter } from './siteAdapter.ts';

export interface LocatedField {
  name: string;
  label: string;
  editable: Editable;
  draftIfNonEmpty: boolean;
}

export interface LocatedAction {
  name: string;
  kind: ActionKind;
  label: string;
  element: HTMLElement;
}

/** A named read-only region: its text, and its element when it has one (for markdown). */
export interface ReadableRegion {
  text(): string;
  element(): Element | null;
}

export interface PageModel {
  adapterId: string;
  fields: LocatedField[];
  actions: LocatedAction[];
  /** Named read-only regions, read only when a request asks for them by name. */
  readable: Map<string, ReadableRegion>;
  signIn: SignIn;
  draftBanner: boolean;
}

function first(doc: Document, selectors: string[]): Element | null {
  for (const selector of selectors) {
    const found = doc.querySelector(selector);
    if (found) return found;
  }
  return null;
}

function textOf(element: Element | null): string {
  return ((element as HTMLElement | null)?.innerText ?? element?.textContent ?? '').trim();
}

function elementRegion(find: () => Element | null): ReadableRegion {
  return { text: () => textOf(find()), element: find };
}

function fromAdapter(adapter: SiteAdapter, doc: Document): PageModel {
  const fields: LocatedField[] = [];
  for (const field of adapter.fields) {
    const element = first(doc, field.selectors);
    const editable = element ? editableFrom(element) : null;
    if (editable) fields.push({ name: field.name, label: field.label, editable, draftIfNonEmpty: field.draftIfNonEmpty === true });
  }
  const actions: LocatedAction[] = [];
  for (const action of adapter.actions) {
    const element = first(doc, action.selectors);
    if (element) actions.push({ name: action.name, kind: action.kind, label: action.label, element: element as HTMLElement });
  }
  const readable = new Map<string, ReadableRegion>();
  for (const region of adapter.readable) {
    if (first(doc, region.selectors)) readable.set(region.name, elementRegion(() => first(doc, region.selectors)));
  }
  const signedIn = first(doc, adapter.signIn.signedIn);
  const signedOut = first(doc, adapter.signIn.signedOut);
  let signIn: SignIn;
  if (signedIn && isVisible(signedIn)) {
    signIn = { state: 'signed_in', account: textOf(first(doc, adapter.signIn.account)) || null, via: `adapter:${adapter.id}` };
  } else if (signedOut) {
    signIn = { state: 'signed_out', account: null, via: `adapter:${adapter.id}` };
  } else {
    signIn = { state: 'unknown', account: null, via: `adapter:${adapter.id}` };
  }
  const draftBanner = adapter.draft.banners.some((selector) => {
    const banner = doc.querySelector(selector);
    return banner !== null && isVisible(banner);
  });
  return { adapterId: adapter.id, fields, actions, readable, signIn, draftBanner };
}

const TITLE_HINT = /title|subject|제목/i;
const SIGN_OUT = /^(log ?out|sign ?out|로그아웃)$/i;
const SIGN_IN = /^(log ?in|sign ?in|로그인)$/i;
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
  const explicit = id ? element.ownerDocument.querySelector(`label[for="${CSS.escape(id)}"]`) : null;
  return (
    textOf(explicit) ||
    element.getAttribute('aria-label') ||
    element.getAttribute('placeholder') ||
    element.getAttribute('name') ||
    id ||
    ''
  ).slice(0, 200);
}

/** The generic adapter: infers a title and a body, other fields, actions and sign-in on any site. */
function inferred(doc: Document): PageModel {
  const taken = new Set<string>();
  const candidates = Array.from(
    doc.querySelectorAll(EDITABLE_CANDIDATES),
  ).filter((element) => isVisible(element));
  const editables: Array<{ element: Element; editable: Editable }> = [];
  const seen = new Set<Element>();
  for (const element of candidates) {
    const editable = editableFrom(element);
    if (!editable || seen.has(editable.element)) continue;
    if (editable.kind === 'contenteditable' && editable.element.parentElement?.isContentEditable) continue;
    seen.add(editable.element);
    editables.push({ element, editable });
  }

  const fields: LocatedField[] = [];
  const title = editables.find(
    ({ element, editable }) =>
      editable.kind === 'input' &&
      TITLE_HINT.test(`${element.getAttribute('name') ?? ''} ${element.id} ${element.getAttribute('placeholder') ?? ''} ${element.getAttribute('aria-label') ?? ''}`),
  );
  if (title) fields.push({ name: uniqueName('title', taken), label: labelFor(title.element) || 'Title', editable: title.editable, draftIfNonEmpty: false });
  const bodies = editables
    .filter(({ editable }) => editable.kind !== 'input' && editable.kind !== 'select')
    .sort((a, b) => area(b.element) - area(a.element));
  const body = bodies[0];
  if (body) fields.push({ name: uniqueName('body', taken), label: labelFor(body.element) || 'Body', editable: body.editable, draftIfNonEmpty: false });
  for (const { element, editable } of editables) {
    if (element === title?.element || element === body?.element || fields.length >= 30) continue;
    const wanted = slug(element.getAttribute('name') ?? element.id ?? '', `field_${fields.length + 1}`);
    fields.push({ name: uniqueName(wanted, taken), label: labelFor(element), editable, draftIfNonEmpty: false });
  }

  const actionNames = new Set<string>();
  const actions: LocatedAction[] = [];
  for (const element of Array.from(doc.querySelectorAll<HTMLElement>('button, input[type="submit"], [role="button"]'))) {
    if (!isVisible(element) || actions.length >= 30 || isFormattingControl(element)) continue;
    const label = (textOf(element) || (element as HTMLInputElement).value || element.getAttribute('aria-label') || '').slice(0, 200);
    if (!label) continue;
    const kind = genericActionKind(label);
    actions.push({ name: uniqueName(slug(label, 'action'), actionNames), kind, label, element });
  }

  const readable = new Map<string, ReadableRegion>();
  readable.set('title', { text: () => doc.title, element: () => null });
  const main = doc.querySelector('article, main, [role="main"]');
  if (main) readable.set('main', elementRegion(() => main));

  const clickable = Array.from(doc.querySelectorAll('a, button'));
  let signIn: SignIn = { state: 'unknown', account: null, via: 'generic' };
  if (clickable.some((element) => SIGN_OUT.test(textOf(element)))) {
    const account = ACCOUNT_SELECTORS.map((selector) => doc.querySelector(selector)).find((element) => element && textOf(element));
    signIn = { state: 'signed_in', account: account ? textOf(account) : null, via: 'generic:sign-out-link' };
  } else if (clickable.some((element) => SIGN_IN.test(textOf(element)))) {
    signIn = { state: 'signed_out', account: null, via: 'generic:sign-in-link' };
  }
  return { adapterId: 'generic', fields, actions, readable, signIn, draftBanner: false };
}

export function readPageModel(doc: Document = document): PageModel {
  const adapter = adapterFor(new URL(doc.location.href));
  return adapter ? fromAdapter(adapter, doc) : inferred(doc);
}
