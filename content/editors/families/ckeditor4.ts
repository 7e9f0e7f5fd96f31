/**
 * CKEditor 4 (classic): its iframe's body is its editable (`cke_editable`), kept by its own
 * editor (undo snapshots, a content filter on what is pasted); its status bar shows the element
 * path.
 */
import { describeFamily, type FamilyDetection } from './family.ts';

export const ckeditor4Detection: FamilyDetection<'ckeditor4'> = {
  id: 'ckeditor4',
  find: { by: 'frame', body: '.cke_editable' },
  // No chrome list: its toolbar and element path are left out of actions by the general rule (editorChrome.ts).
  read: 'document',
};

export const ckeditor4 = /* @__PURE__ */ describeFamily(ckeditor4Detection, {
  text: 'rich',
  model: 'own',
  // Its clipboard plugin filters pasted HTML into what its content filter allows and records an undo step.
  write: {
    text: { fill: ['paste', 'execCommand'], append: ['paste', 'execCommand'] },
    html: { fill: ['paste', 'insertHTML'], append: ['paste', 'insertHTML'] },
    clear: ['execCommand'],
  },
  selectAll: 'contents',
  fillers: ['[data-cke-filler]', '[data-cke-bogus]'],
  // The standard preset's format_tags: p;h1;h2;h3;pre (its content filter drops other levels).
  headings: ['h1', 'h2', 'h3'],
  lists: ['ul', 'ol'],
  // A pasted File (no HTML) goes to its uploadimage plugin (on only when the site set `uploadUrl`
  // or `imageUploadUrl`: uploadwidget's paste listener makes an upload widget of it and posts it,
  // field `upload`), which replaces the widget with `<img src=url width height>` when the site
  // answers {uploaded: 1, url}, snapshots locked so that its undo sees one step. That image has
  // no alt: Tether takes it back with its undo (Ctrl+Z) and pastes `<img src=stored alt>` (its
  // content filter keeps img[alt]). Without an upload URL its clipboard plugin embeds the file as
  // data: (clipboard_handleImages): not stored, refused.
  image: {
    via: 'paste-file',
    alt: 'repaste',
    checked:
      'ckeditor4 4.22.1 ckeditor.js (bundled uploadimage/uploadwidget/filetools: addUploadWidget paste listener, onUploaded replaceWith, fileUploadResponse needs `uploaded`; ckeditor.com/docs/ckeditor4/latest/guide/dev_file_upload.html); the ckeditor4 page of e2e images.spec with uploadUrl, 2026-12-01',
  },
  checked: 'ckeditor4 4.22.1 (npm, the last open-source release; its config.js, the standard preset); the ckeditor4 page of e2e editors.spec, 2026-12-01',
});
