/**
 * What Tether knows of one editor family, in one place: `content/editors/families/<id>.ts` holds
 * one family whole (how it is found, read, written, and what it keeps), `content/editorFamily.ts`
 * lists them in detection order, and the drivers (editables.ts, deliver.ts, writeField.ts,
 * markdownOut.ts, semanticHtml.ts, formattingControls.ts) read these traits instead of comparing
 * family names. docs/editors.md says how to add a family.
 *
 * A family file exports two objects because of where they run: `<id>Detection`
 * (FamilyDetection: found and read in every page, so the content script carries it and must stay
 * small) and `<id>` (FamilyDescriptor: the same plus how it is written, carried only by the act
 * module, which builds on the first with `describeFamily`).
 */
import type { Editable, EditorFamily, Mode, Payload } from '../../pageTypes.ts';

/**
 * How a family's field is found, from the DOM alone (the content script runs in the isolated
 * world and cannot reach editor objects). The registry tries families in its order; the first
 * whose finding claims an element wins.
 */
export type Finding =
  /** A form control, by tag (an input only with one of `types`; no type attribute is ""). */
  | { by: 'control'; tag: 'input' | 'textarea' | 'select'; types?: readonly string[] }
  /**
   * The root the editor renders its model into (matched on the element itself or its closest
   * ancestor, in the page or inside a frame's document): the editor's own root class or attribute.
   */
  | { by: 'root'; selector: string }
  /** Any contenteditable element in the page: the browser's DOM is the model. */
  | { by: 'editable' }
  /**
   * A frame whose document is being edited (designMode, or an editable body): by a test of its
   * body (`body`), or, with no `body`, any such frame (the fallback, last in the registry).
   */
  | { by: 'frame'; body?: string }
  /**
   * A document the editor renders and nobody types into (`document`), typed into through a
   * hidden frame (`frames`) in the same editor (`scope`); `parts` are components of the rendered
   * document an adapter may name as fields of their own (read, but not written: see deliver.ts).
   */
  | { by: 'buffer'; frames: string; document: string; scope: string; parts: string }
  /**
   * A site's own widget its adapter declares (content/siteAdapter.ts `control`): never found by a
   * scan of the page, only where an adapter says it is (content/sites/siteReader.ts).
   */
  | { by: 'adapter'; control: 'listbox' | 'chips' };

/**
 * How the field's text is read back (what "verified" compares): a control's `value`; `blocks`:
 * one line per top-level block of the editor's root (their models are block lists); `document`:
 * the rendered text of the editable (a model editor's root inside it is read by blocks). An
 * editor found inside a frame is read as `document`, whatever its family.
 */
export type ReadBack = 'value' | 'blocks' | 'document';

/** Found and read in every page (the content script's part of a family; keep it small). */
export interface FamilyDetection<F extends EditorFamily = EditorFamily> {
  id: F;
  find: Finding;
  /**
   * The editor's own controls beside the editable (toolbars, menus, status bars, balloon
   * panels): formatting, never actions (formattingControls.ts). Generic roles (toolbar, menu)
   * are covered there already.
   */
  chrome?: readonly string[];
  /**
   * The element it renders its placeholder text in, inside its content: never the field's text
   * (skipped when selecting, removed from markup; a root showing one is empty).
   */
  placeholder?: string;
  /** Its own UI it renders among the root's blocks (a widget's label for screen readers): never the field's text. */
  uiBlock?: string;
  /** How its text is read back (ReadBack). */
  read: ReadBack;
  /** Reads the text itself where the family's markup needs it; null: read by `read`. */
  readText?: (element: HTMLElement) => string | null;
}

/** The ways text is delivered (deliver.ts implements each); `buffer-*` go through an input buffer frame. */
export type PathName =
  | 'execCommand'
  | 'insertHTML'
  | 'paste'
  | 'beforeinput'
  | 'keys'
  | 'setter'
  | 'buffer-paste'
  | 'buffer-insertText'
  | 'buffer-keys'
  /** The editor's own document model, called in the page's main world (a family's driver: SmartEditor ONE). */
  | 'document-service'
  /** The editor's own data store, called in the page's main world for a fill or clear (the descriptor's `storeFill`: the WordPress block editor). */
  | 'block-store'
  /** A site widget worked as a person works it (a family's driver: listbox, chips). */
  | 'widget';

/**
 * What a family's store fill (`storeFill`) did: `written` false when nothing reached the editor (and
 * why); else the text its store holds now, read back in the main world (null: it could not be
 * read), and what went wrong, if anything. deliver.ts verifies that text and the page's.
 */
export type StoreFillOutcome = { written: false; problem: string } | { written: true; storeText: string | null; problem?: string };

/** How a family's own driver says a write went (writeField.ts turns it into the step's outcome). */
export interface DriverOutcome {
  /** The path that took, or null (nothing written). */
  path: PathName | null;
  /** The paths that ran (none: nothing was sent to the page). */
  tried: PathName[];
  verified: boolean;
  /** The field's text as the page shows it now. */
  text: string;
  /** For markup: what the editor's model kept and dropped, by the model's own names. */
  kept?: string[];
  dropped?: string[];
  /** Whether the person's Ctrl+Z undoes the write (`editor`), or only Tether's rollback (`tether`). */
  undo?: 'editor' | 'tether';
  /** What each path met: why nothing was written, why a path was passed over. */
  why?: string;
  /** False when nothing reached the page: the paths that ran only looked (a model read, a check) and chose not to write. */
  sent?: false;
}

/**
 * A family written by its own means rather than deliver.ts's paths (SmartEditor ONE's model in
 * the main world; a site's widgets): writeField.ts hands it the write, the select, the snapshot
 * taken before a plan's first write to the field, and the rollback, which it verifies like a
 * write.
 */
export interface FamilyDriver {
  write?(editable: Editable, mode: Mode, payload: Payload | null): Promise<DriverOutcome>;
  select?(editable: Editable, value: string): Promise<DriverOutcome>;
  snapshot(editable: Editable): Promise<unknown>;
  restore(editable: Editable, snapshot: unknown): Promise<boolean>;
}

/**
 * The paths a family honours, in order, by what is delivered (plain text, allowlisted markup, or
 * nothing: clear) and how (fill replaces, append adds at the end). A later path is tried only when
 * the earlier one left the field unchanged, so text is never written twice.
 */
export interface WritePaths {
  text: { fill: readonly PathName[]; append: readonly PathName[] };
  html: { fill: readonly PathName[]; append: readonly PathName[] };
  clear: readonly PathName[];
}

export type HeadingLevel = 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6';

/**
 * How a family's editor takes an image so that the site stores its own copy (content/editors/
 * image.ts drives it; docs/editors.md, "Images"). The image goes in through the editor's own upload
 * path, never as a link to where it came from; Tether then waits (with a limit) until the editor
 * shows it at an http(s) address that is not a data: or blob: one — the site's stored copy — and
 * reads the alt back.
 */
export interface ImageUpload {
  /**
   * The path the bytes take:
   * - `paste-file`: a `paste` whose DataTransfer holds only the File (no text), as a person's paste
   *   of a copied image; the editor hands it to the site's uploader (Quill's uploader, TipTap's
   *   FileHandler, Lexical's DRAG_DROP_PASTE).
   * - `paste-html`: a `paste` of HTML holding one `<img src="data:…" alt="…">`, which editors
   *   that upload local images in pasted content send to the site's upload URL themselves (TinyMCE's
   *   images_upload_url/handler, CKEditor 5's upload adapter), keeping the alt.
   * - `beforeinput-file`: `beforeinput` insertFromPaste with the File (editors that ignore a
   *   synthetic paste, as slate-react does).
   * - `custom`: the family's own `insert` (SmartEditor ONE's uploader, say).
   */
  via: 'paste-file' | 'paste-html' | 'beforeinput-file' | 'custom';
  /**
   * `kept`: the path carries the alt into the editor's image. `repaste`: the editor's image comes
   * out of the site's handler without one, so once the upload has finished Tether takes that
   * insertion back with the editor's own undo and pastes the same stored image (its site address)
   * with the alt: one step in the person's undo.
   */
  alt: 'kept' | 'repaste';
  /**
   * The editor's history merges changes made within this many ms of each other into one undo step
   * (Quill's history `delay`): Tether waits until the field has been still that long before the
   * image goes in, so the image is an undo step of its own (the person's Ctrl+Z, and a rollback,
   * take out the image and not the text written just before it).
   */
  quietMs?: number;
  /**
   * When the site's upload fails, the editor takes its image out again in a change its undo does
   * not record, so Tether's paste stays one (now empty) step of its undo history: Tether takes
   * that step back with the editor's undo at once, so that neither the person's Ctrl+Z nor a
   * rollback's undo of an earlier image meets it instead.
   */
  failedUploadLeavesUndoStep?: true;
  /**
   * How the family's own uploader puts the image in (via `custom`): resolves when the editor has
   * it, or says why not. An answer with `src` is the family's own verification (placement, model
   * and page read back): image.ts reports it as it is, and waits for nothing more.
   */
  insert?: (request: CustomImageInsert) => Promise<CustomImageOutcome>;
  /** Takes an image this path put in back out (a rollback's), read back; without it, the editor's undo keys and a delete. */
  remove?: (request: { editable: Editable; src: string }) => Promise<boolean>;
  /** What this path was checked against: the library, its documentation, the test page, and when. */
  checked: string;
}

/** What a family's own uploader is given (ImageUpload.insert). */
export interface CustomImageInsert {
  /** The editable element and its document. */
  element: HTMLElement;
  doc: Document;
  /** The field itself (a family's own path needs what its adapter marked on it: SmartEditor ONE's editor and part). */
  editable: Editable;
  /** The block it goes after (the start of its text), or the end of the field. */
  after?: string;
  /** The pixel size read from the bytes' header. */
  width: number;
  height: number;
  /** The bytes, as a File of the editable's own window, with the image's name and type. */
  file: File;
  alt: string;
  /** How long the site's upload may take (UPLOAD_LIMIT_MS unless a caller says less). */
  limitMs?: number;
}

/** What a family's own uploader answers (ImageUpload.insert). */
export type CustomImageOutcome =
  { ok: true } | { ok: true; src: string; text: string; path: string } | { ok: false; problem: string; text?: string; src?: string };

/** One editor family, whole: found and read as its FamilyDetection says, written by the act module. */
export interface FamilyDescriptor<F extends EditorFamily = EditorFamily> extends FamilyDetection<F> {
  /** `plain`: the field holds text (markdown goes in as its source); `rich`: it holds structure. */
  text: 'plain' | 'rich';
  /**
   * Where the text lives: a form control's `value`; the `dom` itself (contenteditable, designMode:
   * a rollback puts the markup back as it was); or the editor's `own` model, rendered into the DOM
   * (a rollback gives it its content back the way it takes any markup).
   */
  model: 'value' | 'dom' | 'own';
  write: WritePaths;
  /**
   * What a fill or clear selects before it writes: the control's whole `value`; the root's
   * `contents`, blocks included (what replaces them does not inherit the first block's type);
   * the `text`, first to last caret position; or the editor's own select-all `keys` (Ctrl+A),
   * for editors whose select-all selects the document itself; or, for a block editor, its own
   * `blocks` selection (select-all twice, then Backspace: one empty block is left, which what is
   * pasted replaces). An append puts the caret at the end of the text, whatever this says.
   */
  selectAll: 'value' | 'contents' | 'text' | 'keys' | 'blocks';
  /**
   * Why an append of these block constructs (headings, lists, quotes …) is refused before anything
   * is written, where the editor is known not to keep them at the end of its content (the WordPress
   * block editor's paste merges the first pasted block into the last one); null: it is written.
   */
  appendRefused?: (constructs: readonly string[]) => string | null;
  /** The inputType of a clearing `beforeinput` (default: deleteContentBackward). */
  clearInputType?: 'deleteByCut';
  /** What it renders inside its content that is not text (fillers, its own UI): left out of markup read back. */
  fillers?: readonly string[];
  /** Rewrites its own markup for a structure (in a detached copy) into the allowlisted HTML Tether speaks. */
  toSemantic?: (root: HTMLElement) => void;
  /** Rewrites Tether's HTML (in a detached copy) into the markup its paste handling keeps (Editor.js: `<b>`, not `<strong>`). */
  pasteMarkup?: (body: HTMLElement) => void;
  /**
   * The text its model holds, read by its schema where the DOM says more than the model keeps
   * (a block editor: markup inside one block is that block's text, run together). What a write
   * is verified against; null or absent: the text read back (`read`).
   */
  modelText?: (root: HTMLElement) => string;
  /**
   * Where it finishes a write, when later than its DOM goes quiet: in an `idle` callback, an
   * animation `frame` (Trix renders its document in requestAnimationFrame), or an idle callback
   * that asks for a frame, `idle-frame` (Editor.js calls a pasted block's onPaste in
   * requestIdleCallback, and its paragraph tool sets the text in requestAnimationFrame there).
   * The write is read back once the page got there.
   */
  finishes?: 'idle' | 'frame' | 'idle-frame';
  /**
   * The `block-store` path: the whole field replaced through the editor's own store in the main
   * world (`html` as Tether's HTML for it, `text` its plain flavour; both '' to clear);
   * `stillExpected` is asked once the store was read, right before the write.
   */
  storeFill?: (editable: Editable, html: string, text: string, stillExpected: () => boolean) => Promise<StoreFillOutcome>;
  /** The heading levels its model keeps (none: plain text); a heading it does not keep is written at the nearest one it does. */
  headings: readonly HeadingLevel[];
  /** The lists its model keeps. */
  lists: readonly ('ul' | 'ol')[];
  /** How it takes an image the site stores (none: Tether refuses images here, never links one). */
  image?: ImageUpload;
  /** What this descriptor was checked against: the library and version, the test page, and when. */
  checked: string;
  /** Its own driver, when `write` is not deliver.ts's to run (FamilyDriver). */
  driver?: FamilyDriver;
}

/**
 * A family's descriptor: its detection part and the rest. Call it as `/* @__PURE__ *\/
 * describeFamily(…)`: the annotation lets the content script's build drop the descriptor (it
 * uses only the detection part), which an object spread alone would keep.
 */
export function describeFamily<F extends EditorFamily>(
  detection: FamilyDetection<F>,
  rest: Omit<FamilyDescriptor<F>, keyof FamilyDetection>,
): FamilyDescriptor<F> {
  return { ...detection, ...rest };
}
