/**
 * Writing a site's own widgets its adapter declares (content/siteAdapter.ts `control`), as a
 * person works them, each read back (content/siteControlRead.ts):
 * - a listbox: a button that opens a list of options (Naver Blog's category menu, Naver Cafe's
 *   board). Select = open it if the option is not showing, press the option whose text is the
 *   value, and read the button back.
 * - chips: an input where Enter commits what was typed as a chip beside it (the blogs' tags).
 *   Fill = remove the chips there, then type and commit each tag; append = commit more; clear =
 *   remove them all.
 */
import type { DriverOutcome } from './families/family.ts';
import type { SiteControl } from '../siteAdapter.ts';
import { chipsOf, chipText, listboxOptions, readControl, textOf } from '../siteControlRead.ts';
import { asTether } from '../act/actHost.ts';
import { settle } from './settle.ts';

type Listbox = Extract<SiteControl, { kind: 'listbox' }>;
type Chips = Extract<SiteControl, { kind: 'chips' }>;

/** Tags as a step writes them: separated by commas or new lines, a leading "#" dropped, each once. */
export function tagsIn(text: string): string[] {
  const tags = text
    .split(/[,\n]/)
    .map((tag) => tag.trim().replace(/^#+/, '').trim())
    .filter((tag) => tag !== '');
  return tags.filter((tag, index) => tags.indexOf(tag) === index);
}

function click(element: Element): void {
  asTether(() => (element as HTMLElement).click());
}

const shown = (element: Element | undefined): element is Element => element !== undefined && (element as HTMLElement).getClientRects().length > 0;

export async function selectListbox(opener: HTMLElement, control: Listbox, value: string): Promise<DriverOutcome> {
  const doc = opener.ownerDocument;
  const wanted = (option: Element) => textOf(option) === value;
  const result = (verified: boolean, why?: string): DriverOutcome => ({
    path: 'widget',
    tried: ['widget'],
    verified,
    text: readControl(opener, control),
    ...(why ? { why } : {}),
  });
  if (textOf(opener) === value) return result(true);
  if (!listboxOptions(doc, control).some(wanted)) {
    return {
      path: null,
      tried: [],
      verified: false,
      text: readControl(opener, control),
      why: `no option "${value}" (options: ${listboxOptions(doc, control).map(textOf).join(', ')})`,
    };
  }
  if (!shown(listboxOptions(doc, control).find(wanted))) {
    click(opener);
    await settle([doc.body], () => shown(listboxOptions(doc, control).find(wanted)), { quietMs: 100, deadlineMs: 2000 });
  }
  const option = listboxOptions(doc, control).find(wanted);
  if (!shown(option)) return result(false, 'the option did not show when the list was opened');
  click(option);
  return result(await settle([doc.body], () => textOf(opener) === value, { quietMs: 100, deadlineMs: 2000 }));
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

function pressEnter(input: HTMLInputElement): void {
  const view = (input.ownerDocument.defaultView ?? window) as Window & typeof globalThis;
  const init = { key: 'Enter', code: 'Enter', keyCode: 13, which: 13, bubbles: true, cancelable: true };
  input.dispatchEvent(new view.KeyboardEvent('keydown', init));
  input.dispatchEvent(new view.KeyboardEvent('keyup', init));
}

const tagsNow = (input: HTMLInputElement, control: Chips) => chipsOf(input, control).map(chipText);

async function removeChips(input: HTMLInputElement, control: Chips, keep: (tag: string) => boolean): Promise<boolean> {
  for (const chip of chipsOf(input, control)) {
    if (keep(chipText(chip))) continue;
    const remove = chip.querySelector('button');
    if (!remove) return false;
    click(remove);
  }
  return settle([input.ownerDocument.body], () => tagsNow(input, control).every(keep), { quietMs: 100, deadlineMs: 2000 });
}

/** fill / append / clear the chips, each tag committed by Enter and read back. */
export async function writeChips(input: HTMLInputElement, control: Chips, mode: 'fill' | 'append' | 'clear', text: string): Promise<DriverOutcome> {
  const tags = mode === 'clear' ? [] : tagsIn(text);
  const result = (verified: boolean, why?: string): DriverOutcome => ({
    path: 'widget',
    tried: ['widget'],
    verified,
    text: readControl(input, control),
    ...(why ? { why } : {}),
  });
  if (mode !== 'append' && !(await removeChips(input, control, () => false))) return result(false, 'a tag has no button that removes it');
  const expected = [...tagsNow(input, control)];
  for (const tag of tags) {
    if (expected.includes(tag)) continue;
    expected.push(tag);
    asTether(() => {
      typeInto(input, tag);
      pressEnter(input);
    });
    await settle([input.ownerDocument.body], () => tagsNow(input, control).includes(tag), { quietMs: 100, deadlineMs: 2000 });
  }
  const now = tagsNow(input, control);
  const verified = now.length === expected.length && expected.every((tag, index) => now[index] === tag) && input.value === '';
  return result(verified, verified ? undefined : 'the page did not keep every tag as a chip');
}

/** What a rollback puts back: the widget's value as it was. */
export function snapshotControl(element: HTMLElement, control: SiteControl): string {
  return readControl(element, control);
}

export async function restoreControl(element: HTMLElement, control: SiteControl, value: string): Promise<boolean> {
  if (readControl(element, control) === value) return true;
  const outcome =
    control.kind === 'listbox'
      ? await selectListbox(element, control, value)
      : await writeChips(element as HTMLInputElement, control, value === '' ? 'clear' : 'fill', value);
  return outcome.verified && readControl(element, control) === value;
}
