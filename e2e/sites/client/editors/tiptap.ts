/**
 * TipTap (ProseMirror) with the starter kit: headings, lists, quotes, code, links, history. Images
 * as TipTap's docs set uploads up (tiptap.dev/docs/editor/extensions/functionality/filehandler and
 * /nodes/image; @tiptap/extension-file-handler and -image 3.35.0, checked 2026-12-01): the Image
 * node (no base64, its default) and a FileHandler whose `onPaste`/`onDrop` post each file to the
 * site's upload endpoint (field `file`) and insert an image node at the address the site answers.
 * A failed upload inserts nothing. `?noupload`: the docs' first example instead, which reads the
 * file as a data: URL (with allowBase64, so the node takes it): nothing reaches the site.
 */
import { Editor } from '@tiptap/core';
import FileHandler from '@tiptap/extension-file-handler';
import Image from '@tiptap/extension-image';
import StarterKit from '@tiptap/starter-kit';
import { exposeEditor } from './editorPage.ts';

const embedOnly = new URLSearchParams(location.search).has('noupload');
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

async function storedAt(file: File): Promise<string | null> {
  if (embedOnly) {
    return new Promise((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => resolve(null);
      reader.readAsDataURL(file);
    });
  }
  const form = new FormData();
  form.append('file', file, file.name);
  const answer = await fetch('/api/uploads', { method: 'POST', body: form, credentials: 'same-origin' }).catch(() => null);
  const body = answer?.ok ? ((await answer.json().catch(() => null)) as { url?: unknown } | null) : null;
  if (typeof body?.url === 'string') return body.url;
  document.body.dataset.uploadError = `the upload failed (${answer?.status ?? 'no answer'})`;
  return null;
}

async function insertFiles(editor: Editor, files: File[], pos: number): Promise<void> {
  for (const file of files) {
    const src = await storedAt(file);
    if (src) editor.chain().insertContentAt(pos, { type: 'image', attrs: { src } }).focus().run();
  }
}

const editor = new Editor({
  element: document.querySelector<HTMLElement>('#editor') ?? undefined,
  extensions: [
    StarterKit,
    Image.configure({ allowBase64: embedOnly }),
    FileHandler.configure({
      allowedMimeTypes: IMAGE_TYPES,
      onDrop: (current, files, pos) => void insertFiles(current, files, pos),
      // As the docs' example: a paste that carries HTML too is left to the editor's HTML paste.
      onPaste: (current, files, html) => {
        if (html) return;
        void insertFiles(current, files, current.state.selection.anchor);
      },
    }),
  ],
  content: '',
});
(window as unknown as { tiptap: Editor }).tiptap = editor;
exposeEditor({ family: 'prosemirror', html: () => editor.getHTML(), text: () => editor.getText({ blockSeparator: '\n' }) });
