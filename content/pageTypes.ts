/**
 * The page as the content script and the act module model it, as types (and the two name lists
 * they are made of), below every module that finds, reads or writes a field: an editable field
 * and its editor family, the page model, what a write delivers. Nothing here imports from
 * content/: the modules above share these without importing each other (no import cycles, type
 * imports included: eslint.config.js). Each is re-exported from the module that works with it
 * (editables.ts, editorFamily.ts, pageModel.ts, editors/deliver.ts, editors/structuredText.ts,
 * editors/semanticHtml.ts).
 */
import type { FieldKind } from '../shared/page/pageChannel.ts';
import type { ActionKind, SignIn } from '../shared/page/pageProtocol.ts';
import type { TextFormat } from '../shared/agent/planSchema.ts';
import type { SmartEditorRef } from '../shared/page/smartEditorNames.ts';
import type { SiteControl } from './siteAdapter.ts';

export const EDITOR_FAMILIES = [
  'input',
  'textarea',
  'select',
  'contenteditable',
  'designmode',
  'ckeditor5',
  'lexical',
  'prosemirror',
  'slate',
  'draft',
  'quill',
  'tinymce',
  'codemirror',
  'smarteditor-one',
  'input-buffer',
  'editorjs',
  'trix',
  'ckeditor4',
  'wordpress-block-editor',
  'listbox',
  'tag-chips',
  'file-input',
] as const;
export type EditorFamily = (typeof EDITOR_FAMILIES)[number];

export interface Editable {
  kind: FieldKind;
  /** Which editor this is, told from the DOM; its traits (content/editors/families/) decide how it is read and written. */
  family: EditorFamily;
  /** The element that holds the text (and takes focus, unless there is an input buffer). */
  element: HTMLElement;
  /** The document that owns `element` (the iframe's document for iframe editors). */
  doc: Document;
  frame: HTMLIFrameElement | null;
  /** For editors that take keystrokes in a hidden iframe: that frame and the body typed into. */
  buffer?: { frame: HTMLIFrameElement; doc: Document; body: HTMLElement };
  /** A part of SmartEditor ONE its Naver adapter marks: the editor's model may be called for it (smarteditor-one.ts). */
  smartEditor?: SmartEditorRef;
  /** A site's own widget its adapter declares (a listbox, a chip input): read and written as that widget. */
  control?: SiteControl;
  /**
   * How such a widget reads (siteControlRead.ts), lent by the sites module that builds its field
   * (siteReader.ts), so the content script every page loads does not carry it.
   */
  controlRead?: { text(): string; options(): string[] | undefined };
}

/** What Tether writes and reports, by canonical name (`b` counts as `strong`, `del` as `s`, …). */
export const CONSTRUCTS = ['h2', 'h3', 'h4', 'strong', 'em', 's', 'code', 'pre', 'a', 'ul', 'ol', 'blockquote', 'br'] as const;
export type Construct = (typeof CONSTRUCTS)[number];

/** How a write goes in: the field's text replaced, added to, or emptied. */
export type Mode = 'fill' | 'append' | 'clear';

export interface Payload {
  format: TextFormat;
  /** text/plain: the text itself, or the markdown source, or the text the HTML renders as. */
  text: string;
  /** text/html: allowlisted markup (for plain text, one paragraph per line). */
  html: string;
  /** The text the HTML renders as, one block per line. */
  htmlText: string;
  /**
   * text/plain of a paste: `text`, except for markdown that makes nothing but paragraphs, where it
   * is the text those render as (paragraphs apart by a blank line). TinyMCE (8.x) takes a paste
   * whose HTML holds nothing but paragraphs as its text/plain, and would show markdown's escapes
   * (`&lt;`, `\*`) as they are written.
   */
  pasteText?: string;
  /** The constructs the HTML carries. */
  constructs: Construct[];
  /** What the sanitizer removed: elements by tag, event handlers, javascript:/data: URLs. */
  removed: string[];
}

export interface LocatedField {
  name: string;
  label: string;
  editable: Editable;
  draftIfNonEmpty: boolean;
  /** The element the adapter's selector (or the generic scan) pointed at; the editable is in it. */
  located: Element;
}

export interface LocatedAction {
  name: string;
  kind: ActionKind;
  label: string;
  element: HTMLElement;
  /** How many more controls like it the page has, shown or not (a Reply under every comment), left out; the name is the first. */
  repeated?: number;
}

/** A named read-only region: its text, and its element when it has one (for markdown). */
export interface ReadableRegion {
  text(): string;
  element(): Element | null;
}

export interface PageModel {
  adapterId: string;
  /** Why the adapter's reading was replaced or extended by the generic one; absent when it was not. */
  adapterProblem?: string;
  fields: LocatedField[];
  actions: LocatedAction[];
  /** Named read-only regions, read only when a request asks for them by name. */
  readable: Map<string, ReadableRegion>;
  signIn: SignIn;
  draftBanner: boolean;
}
