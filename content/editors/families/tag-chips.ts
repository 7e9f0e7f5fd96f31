/**
 * A site's tag input its adapter declares (siteAdapter.ts `control: { kind: 'chips' }`): Enter
 * commits what was typed as a chip beside the input (Naver Blog's #tag-input, up to 30). Its value
 * is the chips' tags, "a, b, c"; a fill writes tags separated by commas or new lines
 * (editors/siteControls.ts).
 */
import { restoreControl, snapshotControl, writeChips } from '../siteControls.ts';
import { describeFamily, type FamilyDetection } from './family.ts';
import type { Editable } from '../../pageTypes.ts';

export const tagChipsDetection: FamilyDetection<'tag-chips'> = {
  id: 'tag-chips',
  find: { by: 'adapter', control: 'chips' },
  read: 'value',
};

function chipsOf(editable: Editable) {
  const control = editable.control;
  if (control?.kind !== 'chips') throw new Error('a tag field without its adapter’s chips');
  return control;
}

export const tagChips = /* @__PURE__ */ describeFamily(tagChipsDetection, {
  text: 'plain',
  model: 'own',
  write: { text: { fill: ['widget'], append: ['widget'] }, html: { fill: [], append: [] }, clear: ['widget'] },
  selectAll: 'text',
  headings: [],
  lists: [],
  driver: {
    write: (editable, mode, payload) => writeChips(editable.element as HTMLInputElement, chipsOf(editable), mode, payload?.text ?? ''),
    snapshot: async (editable) => snapshotControl(editable.element, chipsOf(editable)),
    restore: (editable, snapshot) => restoreControl(editable.element, chipsOf(editable), String(snapshot)),
  },
  checked: 'Naver Blog’s #tag-input as the public record shows it (AIM, JHN, FDX: e2e/sites/naver/SOURCES.md) and its fixture, 2026-12-01',
});
