/** Quill 2 (snow) with a full toolbar. */
import Quill from 'quill';
import { exposeEditor } from './editorPage.ts';

const quill = new Quill('#editor', {
  theme: 'snow',
  modules: {
    toolbar: [
      [{ header: [2, 3, 4, false] }],
      ['bold', 'italic', 'strike', 'code'],
      ['link', 'blockquote', 'code-block'],
      [{ list: 'ordered' }, { list: 'bullet' }],
      ['clean'],
    ],
  },
});
(window as unknown as { quill: Quill }).quill = quill;
exposeEditor({ family: 'quill', html: () => quill.getSemanticHTML(), text: () => quill.getText().replace(/\n$/, '') });
