/**
 * Element identity inside this document. Each element Tether reports gets a random id, kept in a
 * WeakMap for as long as the element lives (the page cannot read or set it: it lives in the
 * content script's world). A page that swaps which element a name points at cannot keep its id.
 */
import { fieldHash } from '../shared/page/fieldText.ts';
import { newId } from '../shared/ids.ts';
import type { SeenElement } from '../shared/page/elementBinding.ts';

const ids = new WeakMap<Element, string>();

export function elementId(element: Element): string {
  let id = ids.get(element);
  if (id === undefined) {
    id = newId('el', 9);
    ids.set(element, id);
  }
  return id;
}

/** The text a person reads on a button or link. */
export function visibleLabel(element: HTMLElement): string {
  const text = (element.innerText ?? element.textContent ?? '').trim();
  return (text || (element as HTMLInputElement).value || element.getAttribute('aria-label') || '').slice(0, 200);
}

/**
 * What a button does, as far as markup says: its kind and where it sends. Not its classes or
 * state, which pages change while a person hovers or waits.
 */
function fingerprint(element: HTMLElement): string {
  const form = (element as HTMLButtonElement).form ?? null;
  const attribute = (name: string) => element.getAttribute(name) ?? '';
  return fieldHash(
    JSON.stringify([
      element.tagName.toLowerCase(),
      attribute('type'),
      attribute('id'),
      attribute('name'),
      attribute('role'),
      attribute('href'),
      attribute('formaction'),
      attribute('formmethod'),
      element.tagName.toLowerCase() === 'input' ? attribute('value') : '',
      form?.getAttribute('action') ?? '',
      form?.getAttribute('method') ?? '',
    ]),
  );
}

export function seenElement(element: HTMLElement): SeenElement {
  return { element: elementId(element), label: visibleLabel(element), fingerprint: fingerprint(element) };
}
