/**
 * The editor families, in detection order: which editor a field is, told from the DOM alone (the
 * content script runs in the isolated world and cannot reach editor objects, so each family is
 * known by the markup it renders). Each family is one file, content/editors/families/<id>.ts; this
 * is the list of their detection parts (the content script's), and families/index.ts is the
 * list of the whole descriptors (the act module's). docs/editors.md says how to add one.
 */
import { ckeditor4Detection } from './editors/families/ckeditor4.ts';
import { ckeditor5Detection } from './editors/families/ckeditor5.ts';
import { codemirrorDetection } from './editors/families/codemirror.ts';
import { contenteditableDetection } from './editors/families/contenteditable.ts';
import { designmodeDetection } from './editors/families/designmode.ts';
import { draftDetection } from './editors/families/draft.ts';
import { editorjsDetection } from './editors/families/editorjs.ts';
import { wordpressBlockEditorDetection } from './editors/families/wordpress-block-editor.ts';
import type { FamilyDetection } from './editors/families/family.ts';
import type { EditorFamily } from './pageTypes.ts';
import { inputBufferDetection } from './editors/families/input-buffer.ts';
import { listboxDetection } from './editors/families/listbox.ts';
import { smartEditorOneDetection } from './editors/families/smarteditor-one.ts';
import { tagChipsDetection } from './editors/families/tag-chips.ts';
import { inputDetection } from './editors/families/input.ts';
import { fileInputDetection } from './editors/families/file-input.ts';
import { lexicalDetection } from './editors/families/lexical.ts';
import { prosemirrorDetection } from './editors/families/prosemirror.ts';
import { quillDetection } from './editors/families/quill.ts';
import { selectDetection } from './editors/families/select.ts';
import { slateDetection } from './editors/families/slate.ts';
import { textareaDetection } from './editors/families/textarea.ts';
import { tinymceDetection } from './editors/families/tinymce.ts';
import { trixDetection } from './editors/families/trix.ts';

export { EDITOR_FAMILIES, type EditorFamily } from './pageTypes.ts';

/**
 * Tried in this order; the first that claims an element wins. Controls first; the rendered
 * document of an input-buffer editor before anything inside it; every editor's own root before
 * the generic contenteditable; a frame's body test before the generic designMode frame.
 */
export const DETECTION: readonly FamilyDetection[] = [
  inputDetection,
  textareaDetection,
  selectDetection,
  fileInputDetection,
  smartEditorOneDetection,
  inputBufferDetection,
  listboxDetection,
  tagChipsDetection,
  ckeditor5Detection,
  lexicalDetection,
  prosemirrorDetection,
  slateDetection,
  draftDetection,
  quillDetection,
  codemirrorDetection,
  editorjsDetection,
  wordpressBlockEditorDetection,
  trixDetection,
  tinymceDetection,
  ckeditor4Detection,
  contenteditableDetection,
  designmodeDetection,
];

export function detectionOf(family: EditorFamily): FamilyDetection {
  return DETECTION.find((detection) => detection.id === family) ?? contenteditableDetection;
}

/** Roots of editors that keep their own document model and render it into a contenteditable. */
export const RICH_EDITOR_ROOTS = DETECTION.flatMap(({ find }) => (find.by === 'root' ? find.selector : [])).join(', ');

/** Every family's own controls beside its editable (toolbars, status bars, balloon panels). */
export const EDITOR_CHROME = DETECTION.flatMap(({ chrome }) => chrome ?? []).join(', ');

/** Every family's placeholder element (its text is never the field's). */
export const PLACEHOLDERS = DETECTION.flatMap(({ placeholder }) => placeholder ?? []).join(', ');

/** Every family's UI among its root's blocks (none: a selector nothing matches). */
export const UI_BLOCKS = DETECTION.flatMap(({ uiBlock }) => uiBlock ?? []).join(', ') || ':not(*)';

/**
 * The family of an editor inside a frame: of its document's body (`body`: a frame family's body
 * test applies) or of an editable element in it; an editor's root by its selector; else the
 * frame fallback (designMode, last in the list).
 */
export function frameFamily(element: HTMLElement, body: boolean): EditorFamily {
  const found = DETECTION.find(
    ({ find }) =>
      (find.by === 'root' && element.matches(find.selector)) || (find.by === 'frame' && (find.body === undefined || (body && element.matches(find.body)))),
  );
  return found?.id ?? designmodeDetection.id;
}
