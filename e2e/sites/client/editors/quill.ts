/**
 * Quill 2 (snow) with a full toolbar. Images upload to the site as Quill 2's docs set it up: the
 * uploader module's `handler(range, files)` (quilljs.com/docs/modules/uploader; node_modules/quill
 * modules/uploader.js, 2.0.3, checked 2026-12-01) is called for a pasted or dropped file; this one
 * posts it to the site's upload endpoint (field `image`) and inserts the image at the address the
 * site answers, as the user's change (so Quill's history undoes it). A failed upload inserts
 * nothing, as the default handler's data: embed would hotlink nothing either.
 */
import Quill, { type Range } from 'quill';
import { exposeEditor } from './editorPage.ts';

async function uploadToSite(this: { quill: Quill }, range: Range, files: File[]): Promise<void> {
  const urls: string[] = [];
  for (const file of files) {
    const form = new FormData();
    form.append('image', file, file.name);
    const answer = await fetch('/api/uploads', { method: 'POST', body: form, credentials: 'same-origin' }).catch(() => null);
    const body = answer?.ok ? ((await answer.json().catch(() => null)) as { url?: unknown } | null) : null;
    if (typeof body?.url !== 'string') {
      document.body.dataset.uploadError = `the upload failed (${answer?.status ?? 'no answer'})`;
      return;
    }
    urls.push(body.url);
  }
  // What the default handler does with its data: URLs (modules/uploader.js), with the site's addresses.
  if (range.length > 0) this.quill.deleteText(range.index, range.length, Quill.sources.USER);
  urls.forEach((url, at) => this.quill.insertEmbed(range.index + at, 'image', url, Quill.sources.USER));
  this.quill.setSelection(range.index + urls.length, Quill.sources.SILENT);
}

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
    // ?noupload: Quill's default handler, which embeds the file as data: (nothing reaches the site).
    ...(new URLSearchParams(location.search).has('noupload') ? {} : { uploader: { handler: uploadToSite } }),
  },
});
(window as unknown as { quill: Quill }).quill = quill;
exposeEditor({ family: 'quill', html: () => quill.getSemanticHTML(), text: () => quill.getText().replace(/\n$/, '') });
