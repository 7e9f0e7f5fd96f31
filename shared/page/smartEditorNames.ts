/**
 * SmartEditor ONE's names Tether knows (no zod: the site adapters' module carries these): the
 * editor ids Naver's pages register and the frames that hold the editor.
 */

/** The editor ids Naver's pages register (Blog: blogpc001; Cafe: cafepc001). */
export const SMART_EDITOR_KEYS = ['blogpc001', 'cafepc001'] as const;
export type SmartEditorKey = (typeof SMART_EDITOR_KEYS)[number];

/** The same-origin frames that hold the editor (the Naver adapters' frames); null: the bound document itself. */
export const SMART_EDITOR_FRAMES = ['iframe#mainFrame', 'iframe#cafe_main'] as const;

/** A field that is a part of SmartEditor ONE (its adapter says so): which editor, which part, and the frame that holds it (null: the bound document). */
export interface SmartEditorRef {
  key: SmartEditorKey;
  part: 'title' | 'body';
  frame: (typeof SMART_EDITOR_FRAMES)[number] | null;
}
