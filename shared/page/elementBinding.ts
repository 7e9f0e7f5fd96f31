/**
 * Names an agent uses must keep meaning the elements Tether showed. The content script gives each
 * element it reports a random id for the life of the document (never shown to agents); the worker
 * keeps, per handle, which element each field name meant when the page was last looked at, and,
 * per act, which element each click meant at the dry run (with its label and a fingerprint of
 * what it does). These pure rules compare that with the page now. Unknown identity never passes.
 */

/** A button or link as Tether saw it: its id in this document, its label, and its fingerprint. */
export interface SeenElement {
  element: string;
  label: string;
  fingerprint: string;
}

/** The element a click step was validated (and approved) against at the dry run. */
export interface ClickPin extends SeenElement {
  step: number;
}

export type FieldBinding = 'same' | 'unknown' | 'other_element';

/** Does the field name still mean the element it meant when the handle last saw the page? */
export function checkFieldBinding(bound: string | undefined, now: string): FieldBinding {
  if (bound === undefined || bound === '') return 'unknown';
  return bound === now ? 'same' : 'other_element';
}

export type PinDrift = 'unpinned' | 'element' | 'label' | 'fingerprint';

function sameLabel(a: string, b: string): boolean {
  return a.replace(/\s+/gu, ' ').trim() === b.replace(/\s+/gu, ' ').trim();
}

/** What moved since the dry run; empty when the click may go ahead. */
export function pinDrift(pin: ClickPin | undefined, now: SeenElement): PinDrift[] {
  if (!pin) return ['unpinned'];
  const drift: PinDrift[] = [];
  if (pin.element !== now.element) drift.push('element');
  if (!sameLabel(pin.label, now.label)) drift.push('label');
  if (pin.fingerprint !== now.fingerprint) drift.push('fingerprint');
  return drift;
}
