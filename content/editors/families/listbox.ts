/**
 * A site's own listbox its adapter declares (siteAdapter.ts `control: { kind: 'listbox' }`): a
 * button that opens a list of options, its value the chosen option's text (Naver Blog's category
 * menu in the publish layer, Naver Cafe's board). Inspect lists it as a `select` with its options;
 * `select` presses the option (editors/siteControls.ts).
 */
import { restoreControl, selectListbox, snapshotControl } from '../siteControls.ts';
import { describeFamily, type FamilyDetection } from './family.ts';
import type { Editable } from '../../pageTypes.ts';

export const listboxDetection: FamilyDetection<'listbox'> = {
  id: 'listbox',
  find: { by: 'adapter', control: 'listbox' },
  read: 'document',
};

function listboxOf(editable: Editable) {
  const control = editable.control;
  if (control?.kind !== 'listbox') throw new Error('a listbox field without its adapter’s listbox');
  return control;
}

export const listbox = /* @__PURE__ */ describeFamily(listboxDetection, {
  text: 'plain',
  model: 'own',
  write: { text: { fill: [], append: [] }, html: { fill: [], append: [] }, clear: [] },
  selectAll: 'text',
  headings: [],
  lists: [],
  driver: {
    select: (editable, value) => selectListbox(editable.element, listboxOf(editable), value),
    snapshot: async (editable) => snapshotControl(editable.element, listboxOf(editable)),
    restore: (editable, snapshot) => restoreControl(editable.element, listboxOf(editable), String(snapshot)),
  },
  checked: 'Naver Blog’s category menu and Naver Cafe’s board as the public record shows them (e2e/sites/naver/SOURCES.md) and their fixture, 2026-12-01',
});
