/**
 * The whole descriptors, for the act module (drivers: deliver.ts, writeField.ts, markdownOut.ts,
 * semanticHtml.ts). Typed by id, so a family in EDITOR_FAMILIES without a descriptor does not
 * compile; their detection order is content/editorFamily.ts's.
 */
import type { Editable } from '../../pageTypes.ts';
import { DETECTION, type EditorFamily } from '../../editorFamily.ts';
import { ckeditor4 } from './ckeditor4.ts';
import { ckeditor5 } from './ckeditor5.ts';
import { codemirror } from './codemirror.ts';
import { contenteditable } from './contenteditable.ts';
import { designmode } from './designmode.ts';
import { draft } from './draft.ts';
import { editorjs } from './editorjs.ts';
import { editorjsImage } from '../editorjsImage.ts';
import { wordpressBlockEditor } from './wordpress-block-editor.ts';
import type { FamilyDescriptor } from './family.ts';
import { inputBuffer } from './input-buffer.ts';
import { smartEditorOneDriver } from '../smartEditorOne/driver.ts';
import { smartEditorOneImage } from '../smartEditorOne/photo.ts';
import { wordpressMediaUpload } from '../wordpress/media.ts';
import { fillThroughStore } from '../wordpress/store.ts';
import { markdownPasteImage } from '../markdownImage.ts';
import { listbox } from './listbox.ts';
import { smartEditorOne } from './smarteditor-one.ts';
import { tagChips } from './tag-chips.ts';
import { input } from './input.ts';
import { fileInput } from './file-input.ts';
import { lexical } from './lexical.ts';
import { prosemirror } from './prosemirror.ts';
import { quill } from './quill.ts';
import { select } from './select.ts';
import { slate } from './slate.ts';
import { textarea } from './textarea.ts';
import { tinymce } from './tinymce.ts';
import { trix } from './trix.ts';
import { trixImage } from '../trixImage.ts';

export const FAMILIES: { readonly [F in EditorFamily]: FamilyDescriptor<F> } = {
  input,
  textarea,
  select,
  contenteditable,
  designmode,
  ckeditor5,
  lexical,
  prosemirror,
  slate,
  draft,
  quill,
  tinymce,
  // Its image path joins here (the content script imports its file for detection only).
  codemirror: { ...codemirror, image: markdownPasteImage },
  // Its driver joins here, not in its file: the content script imports that file for detection, and the driver (with zod) must stay in this module.
  'smarteditor-one': { ...smartEditorOne, driver: smartEditorOneDriver, image: smartEditorOneImage },
  'input-buffer': inputBuffer,
  editorjs: { ...editorjs, image: editorjsImage },
  // Its image path joins here (it carries zod for the worker's answers; the content script imports trix.ts for detection).
  trix: { ...trix, image: trixImage },
  ckeditor4,
  // Its media upload and its store fill join here too: they call the worker (actHost), which the content script must not carry.
  'wordpress-block-editor': { ...wordpressBlockEditor, image: wordpressMediaUpload, storeFill: fillThroughStore },
  listbox,
  'tag-chips': tagChips,
  'file-input': fileInput,
};

/** The descriptor of an editable's family. */
export function familyOf(editable: Editable): FamilyDescriptor {
  return FAMILIES[editable.family];
}

/** Every family, in detection order (for rules that apply to whatever editor a region holds). */
export const ALL_FAMILIES: readonly FamilyDescriptor[] = DETECTION.map(({ id }) => FAMILIES[id]);
