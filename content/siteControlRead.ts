/**
 * Reading a site's own widgets an adapter declares (siteAdapter.ts `control`), in every page the
 * adapter claims: a listbox's chosen option and its options, a chip input's tags. Writing them is
 * the act module's (editors/siteControls.ts).
 */
import type { SiteControl } from './siteAdapter.ts';

export function textOf(element: Element): string {
  return (element.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** A listbox's options, wherever its page keeps them (in the DOM while closed, or only once open). */
export function listboxOptions(doc: Document, control: Extract<SiteControl, { kind: 'listbox' }>): Element[] {
  return Array.from(doc.querySelectorAll(control.options));
}

/** A chip's tag, without the "#" sites show before it and its remove button's mark. */
export function chipText(chip: Element): string {
  return textOf(chip)
    .replace(/\s*[×✕]$/, '')
    .replace(/^#/, '')
    .trim();
}

export function chipsOf(input: Element, control: Extract<SiteControl, { kind: 'chips' }>): Element[] {
  const container = input.closest(control.container) ?? input.ownerDocument;
  return Array.from(container.querySelectorAll(control.chip)).filter((chip) => chip !== input && !chip.contains(input));
}

/** The field's value: a listbox's shown choice; a chip input's tags, "a, b, c" (text typed but not committed is not a tag). */
export function readControl(element: HTMLElement, control: SiteControl): string {
  return control.kind === 'listbox' ? textOf(element) : chipsOf(element, control).map(chipText).join(', ');
}

/** A listbox's options by their text; none for chips. */
export function controlOptions(element: HTMLElement, control: SiteControl): string[] | undefined {
  return control.kind === 'listbox' ? listboxOptions(element.ownerDocument, control).map(textOf) : undefined;
}
