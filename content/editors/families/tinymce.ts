/** TinyMCE (iframe mode): its own model over the document of its iframe, whose body is `#tinymce`. */
import { describeFamily, type FamilyDetection } from './family.ts';

export const tinymceDetection: FamilyDetection<'tinymce'> = {
  id: 'tinymce',
  find: { by: 'frame', body: '#tinymce, .mce-content-body' },
  // Its menu and toolbar header, and its status bar (the element path, word count).
  chrome: ['.tox-editor-header', '.tox-statusbar'],
  read: 'document',
};

export const tinymce = /* @__PURE__ */ describeFamily(tinymceDetection, {
  text: 'rich',
  model: 'own',
  write: {
    text: { fill: ['paste', 'execCommand'], append: ['paste', 'execCommand'] },
    html: { fill: ['paste', 'execCommand'], append: ['paste', 'execCommand'] },
    clear: ['execCommand'],
  },
  // The whole body, blocks included: what replaces it does not inherit the first block's type.
  selectAll: 'contents',
  fillers: ['[data-mce-bogus="all"]'],
  // Its default schema keeps h1–h6 and lists (block_formats only limits the menu).
  headings: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
  lists: ['ul', 'ol'],
  // Pasted HTML's data: images become blobs TinyMCE uploads itself (automatic_uploads, to the
  // site's images_upload_url or images_upload_handler), then points at the answer's location; the
  // alt stays on the element. No upload configured: it keeps data: and Tether refuses (not stored).
  image: {
    via: 'paste-html',
    alt: 'kept',
    checked:
      'tinymce 8.9.2 tinymce.js (paste_data_images, uploadImagesAuto, images_upload_url answer {location}); the tinymce page of e2e images.spec with images_upload_url, 2026-12-01',
  },
  checked: 'tinymce 8.9.2 (npm, self-hosted, iframe mode, lists and link plugins); the tinymce page of e2e editors.spec and the Tistory fixture, 2026-12-01',
});
