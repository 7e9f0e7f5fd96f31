/** CodeMirror 6: a text document (markdown source, as blog editors use it), rendered into `.cm-content`. */
import { describeFamily, type FamilyDetection } from './family.ts';

export const codemirrorDetection: FamilyDetection<'codemirror'> = {
  id: 'codemirror',
  find: { by: 'root', selector: '.cm-content' },
  read: 'blocks',
};

export const codemirror = /* @__PURE__ */ describeFamily(codemirrorDetection, {
  // Its document is text: markdown goes in as its source (text/plain of the paste).
  text: 'plain',
  model: 'own',
  write: {
    text: { fill: ['paste', 'execCommand'], append: ['paste', 'execCommand'] },
    html: { fill: ['paste', 'execCommand'], append: ['paste', 'execCommand'] },
    clear: ['execCommand'],
  },
  selectAll: 'text',
  headings: [],
  lists: [],
  // Images: the site's paste handler uploads and writes `![alt](url)` (markdownImage.ts, joined in index.ts).
  checked: '@codemirror/view 6.43.15, @codemirror/state, lang-markdown (npm); the codemirror page of e2e editors.spec, 2026-12-01',
});
