/** CKEditor 5 (classic, inline, balloon): its own model, rendered into `.ck-editor__editable`. */
import { describeFamily, type FamilyDetection } from './family.ts';

export const ckeditor5Detection: FamilyDetection<'ckeditor5'> = {
  id: 'ckeditor5',
  find: { by: 'root', selector: '.ck-editor__editable' },
  // Its toolbar, and the body wrapper its dropdowns and balloons open in.
  chrome: ['.ck-toolbar', '.ck-body-wrapper'],
  read: 'blocks',
  // A selected widget's fake selection: a div appended to the editable holding its label ("<alt>
  // image widget. Press Enter to type after…"), there while the widget is selected — as an image
  // is right after it goes into an empty field (@ckeditor/ckeditor5-engine 48.5.2,
  // view/renderer.js _updateFakeSelection, seen in e2e images.spec, 2026-12-01).
  uiBlock: '.ck-fake-selection-container',
};

export const ckeditor5 = /* @__PURE__ */ describeFamily(ckeditor5Detection, {
  text: 'rich',
  model: 'own',
  // Its clipboard pipeline maps pasted HTML into its schema; typed text goes in as beforeinput.
  write: {
    text: { fill: ['paste', 'beforeinput'], append: ['paste', 'beforeinput'] },
    html: { fill: ['paste'], append: ['paste'] },
    clear: ['execCommand', 'paste'],
  },
  selectAll: 'text',
  fillers: ['[data-cke-filler]', '.ck-fake-selection-container'],
  // Its default heading options (Heading 1–3) render h2–h4, and h1 upcasts to the first; a site may configure others.
  headings: ['h2', 'h3', 'h4'],
  lists: ['ul', 'ol'],
  // Pasted HTML whose images are data: is uploaded by ImageUploadEditing through the site's upload
  // adapter (the image's src becomes the adapter's answer); the alt upcasts with the image. (A
  // pasted File alone also uploads, but without an alt.)
  image: {
    via: 'paste-html',
    alt: 'kept',
    // A failed upload's image is removed by ImageUploadEditing in enqueueChange({ isUndoable: false }),
    // while the paste that inserted it is an undo step (@ckeditor/ckeditor5-image 48.5.2
    // _readAndUpload; seen 2026-12-01 in e2e images.spec: the rollback's Ctrl+Z undid that empty
    // step, and the plan's first photo stayed).
    failedUploadLeavesUndoStep: true,
    checked:
      '@ckeditor/ckeditor5-image and -upload 48.5.2 (ImageUploadEditing, SimpleUploadAdapter answer {url}); the ckeditor5 page of e2e images.spec, 2026-12-01',
  },
  checked: '@ckeditor/ckeditor5-* 48.5.2 (npm; heading defaults in ckeditor5-heading dist/index.js); the ckeditor5 page of e2e editors.spec, 2026-12-01',
});
