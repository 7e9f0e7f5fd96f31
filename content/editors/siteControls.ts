/**
 * Fields that are a site's own widgets, declared by its adapter (content/siteAdapter.ts
 * `control`), written as a person works them:
 * - a listbox: a button that opens a list of options (Naver Blog's category menu, Naver Cafe's
 *   board); its value is the chosen option's text, shown on the button. Select = open it if it is
 *   closed, press the option whose text is the value, read the button back.
 * - chips: an input in which Enter commits what was typed as a chip beside it (Naver Blog's tags,
 *   up to 30); its value is the chips' text, "a, b, c". Fill = remove the chips there, then type
 *   and commit each; append = commit more; clear = remove them all. Each chip is read back.
 *
 * Reading is in the content script (every page: inspect lists the options and the value); writing
 * is here, in the act module.
 */
import { asTether } from '../actHost.ts';
import { settle } from './settle.ts';

export type SiteControl = { kind: 'listbox'; options: string } | { kind: 'chips'; container: string; chip: string };

function textOf(element: Element): string {
  return (element.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** A listbox's options, by their text (present in the DOM even while closed, or not yet). */
export function listboxOptions(doc: Document, control: Extract<SiteControl, { kind: 'listbox' }>): Element[] {
  return Array.from(doc.querySelectorAll(control.options));
}

/** A chip's tag, without the "#" sites show before it. */
function chipText(chip: Element): string {
  return textOf(chip).replace(/[×✕]$/, '').replace(/^#/, '').trim();
}

export function chipsOf(input: HTMLElement, control: Extract<SiteControl, { kind: 'chips' }>): Element[] {
  const container = input.closest(control.container) ?? input.ownerDocument;
  return Array.from(container.querySelectorAll(control.chip)).filter((chip) => chip !== input && !chip.contains(input));
}

/** The chips' tags, "a, b, c"; what is typed but not committed is not a tag. */
export function readChips(input: HTMLElement, control: Extract<SiteControl, { kind: 'chips' }>): string {
  return chipsOf(input, control).map(chipText).join(', ');
}

/** Tags as written in a step: separated by commas or new lines, a leading "#" dropped. */
export function tagsIn(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((tag) => tag.trim().replace(/^#+/, '').trim())
    .filter((tag) => tag !== '');
}

function click(element: Element): void {
  asTether(() => (element as HTMLElement).click());
}

/** Opens the listbox if needed and presses the option whose text is `value`; true when the button then shows it. */
export async function selectListbox(opener: HTMLElement, control: Extract<SiteControl, { kind: 'listbox' }>, value: string): Promise<boolean> {
  const doc = opener.ownerDocument;
  const wanted = (option: Element) => textOf(option) === value;
  let option = listboxOptions(doc, control).find(wanted);
  const visible = (element: Element | undefined) => element !== undefined && (element as HTMLElement).getClientRects().length > 0;
  if (!visible(option)) {
    click(opener);
    await settle([doc.body], () => visible(listboxOptions(doc, control).find(wanted)), { quietMs: 100, deadlineMs: 2000 });
    option = listboxOptions(doc, control).find(wanted);
  }
  if (!option) return false;
  click(option);
  return settle([doc.body], () => textOf(opener) === value, { quietMs: 100, deadlineMs: 2000 });
}

function typeInto(input: HTMLInputElement, text: string): void {
  input.focus({ preventScroll: true });
  input.select();
  if (!input.ownerDocument.execCommand('insertText', false, text)) {
    const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(input) as object, 'value')?.set;
    setter?.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

function enter(input: HTMLInputElement): void {
  const view = (input.ownerDocument.defaultView ?? window) as Window & typeof globalThis;
  const init = { key: 'Enter', code: 'Enter', keyCode: 13, which: 13, bubbles: true, cancelable: true };
  input.dispatchEvent(new view.KeyboardEvent('keydown', init));
  input.dispatchEvent(new view.KeyboardEvent('keyup', init));
}

/** fill / append / clear the chips; resolves to the chips' text after, and whether every tag was committed. */
export async function writeChips(
  input: HTMLInputElement,
  control: Extract<SiteControl, { kind: 'chips' }>,
  mode: 'fill' | 'append' | 'clear',
  text: string,
): Promise<{ verified: boolean; text: string }> {
  const doc = input.ownerDocument;
  const tags = mode === 'clear' ? [] : tagsIn(text);
  if (mode !== 'append') {
    for (const chip of chipsOf(input, control)) {
      const remove = chip.querySelector('button');
      if (!remove) return { verified: false, text: readChips(input, control) };
      click(remove);
    }
    await settle([doc.body], () => chipsOf(input, control).length === 0, { quietMs: 100, deadlineMs: 2000 });
  }
  const before = chipsOf(input, control).map(chipText);
  const expected = [...before, ...tags.filter((tag, index) => !before.includes(tag) && tags.indexOf(tag) === index)];
  for (const tag of tags) {
    if (chipsOf(input, control).map(chipText).includes(tag)) continue;
    asTether(() => {
      typeInto(input, tag);
      enter(input);
    });
    await settle([doc.body], () => chipsOf(input, control).map(chipText).includes(tag), { quietMs: 100, deadlineMs: 2000 });
  }
  const now = chipsOf(input, control).map(chipText);
  return { verified: now.length === expected.length && expected.every((tag, index) => now[index] === tag) && input.value === '', text: now.join(', ') };
}
