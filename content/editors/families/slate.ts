/** Slate (slate-react): its own document, rendered into the root it marks `data-slate-editor`. */
import { describeFamily, type FamilyDetection } from './family.ts';

export const slateDetection: FamilyDetection<'slate'> = {
  id: 'slate',
  find: { by: 'root', selector: '[data-slate-editor="true"]' },
  // Rendered inside the (then empty) document.
  placeholder: '[data-slate-placeholder]',
  read: 'blocks',
};

export const slate = /* @__PURE__ */ describeFamily(slateDetection, {
  text: 'rich',
  model: 'own',
  // slate-react handles beforeinput itself (insertText, insertFromPaste with a DataTransfer).
  write: { text: { fill: ['beforeinput'], append: ['beforeinput'] }, html: { fill: ['beforeinput'], append: ['beforeinput'] }, clear: ['beforeinput'] },
  selectAll: 'text',
  // A clear deletes the selected document as a cut does.
  clearInputType: 'deleteByCut',
  // Slate has no schema of its own: the site's deserializer decides. The suite's page (Slate's paste-HTML example) keeps h2–h4.
  headings: ['h2', 'h3', 'h4'],
  lists: ['ul', 'ol'],
  checked: "slate 0.146.0, slate-react 0.146.1 (npm); the slate page of e2e editors.spec (after Slate's paste-html example), 2026-12-01",
});
