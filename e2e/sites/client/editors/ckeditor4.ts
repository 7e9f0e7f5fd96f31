/**
 * CKEditor 4.22.1 (the last open-source release: GPL/LGPL/MPL), self-hosted from node_modules
 * (/vendor/ckeditor4), classic mode: it replaces a textarea with an iframe it edits, and its
 * status bar shows the element path (`body p`), on by default. The version check is off: it asks
 * ckeditor.com, and the suite is offline.
 *
 * Images upload as its docs set it up (ckeditor.com/docs/ckeditor4/latest/guide/dev_file_upload.html,
 * checked 2026-12-01 against 4.22.1's bundled uploadimage and uploadwidget plugins): `uploadUrl`
 * turns on the uploadimage plugin, which sends a pasted or dropped image file (field `upload`) and
 * replaces its upload widget with `<img src=url width height>` once the site answers
 * `{uploaded: 1, url}` (the alt is not kept). ?noupload: no upload URL, so its clipboard plugin
 * embeds a pasted image as data: (clipboard_handleImages, on by default).
 */
import { exposeEditor } from './editorPage.ts';

interface Ck4Editor {
  getData(): string;
  editable(): { $: HTMLElement };
  on(event: string, listener: () => void): void;
}
declare const CKEDITOR: { replace(id: string, config: Record<string, unknown>): Ck4Editor };

const upload = new URLSearchParams(location.search).has('noupload') ? {} : { uploadUrl: '/api/uploads' };
const editor = CKEDITOR.replace('editor-source', { versionCheck: false, height: 260, language: 'en', ...upload });
editor.on('instanceReady', () => {
  exposeEditor({
    family: 'ckeditor4',
    html: () => editor.getData(),
    // Its model is its editable document (getData serializes it).
    text: () =>
      editor
        .editable()
        .$.innerText.replace(/\n{2,}/g, '\n')
        .trim(),
  });
});
