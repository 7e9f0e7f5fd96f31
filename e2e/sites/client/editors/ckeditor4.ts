/**
 * CKEditor 4.22.1 (the last open-source release: GPL/LGPL/MPL), self-hosted from node_modules
 * (/vendor/ckeditor4), classic mode: it replaces a textarea with an iframe it edits, and its
 * status bar shows the element path (`body p`), on by default. The version check is off: it asks
 * ckeditor.com, and the suite is offline.
 */
import { exposeEditor } from './editorPage.ts';

interface Ck4Editor {
  getData(): string;
  editable(): { $: HTMLElement };
  on(event: string, listener: () => void): void;
}
declare const CKEDITOR: { replace(id: string, config: Record<string, unknown>): Ck4Editor };

const editor = CKEDITOR.replace('editor-source', { versionCheck: false, height: 260, language: 'en' });
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
