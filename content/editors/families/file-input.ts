/**
 * `<input type=file>`: the site's own file chooser (a Tistory-like attach button, a cafe's "add
 * photo"). Never written as text: an `image` step chooses a file in it as a person's choice does
 * (content/editors/fileInput.ts), and the site's own script uploads it. Its `value` is what it reads
 * as ("C:\fakepath\<name>" once chosen, "" before), as the HTML Living Standard says the filename
 * mode reads.
 */
import { describeFamily, type FamilyDetection } from './family.ts';

export const fileInputDetection: FamilyDetection<'file-input'> = {
  id: 'file-input',
  find: { by: 'control', tag: 'input', types: ['file'] },
  read: 'value',
};

export const fileInput = /* @__PURE__ */ describeFamily(fileInputDetection, {
  text: 'plain',
  model: 'value',
  write: { text: { fill: [], append: [] }, html: { fill: [], append: [] }, clear: [] },
  selectAll: 'value',
  headings: [],
  lists: [],
  checked:
    'HTML Living Standard (input type=file: files, accept, multiple; the input and change events a choice fires); Chromium 156, e2e images.spec (the notes site’s /editor/attach), 2026-12-01',
});
