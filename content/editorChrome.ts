/**
 * Editor chrome is not an action, by a general rule rather than a list of editors. A control that
 * formats or moves about in the text — bold, a heading level, a list, a link, undo, insert an image,
 * attach files, the element-path crumbs of a status bar (`body › h2`) — changes nothing a site
 * keeps, and the agent formats through markdown instead; offered as an action it would be one more
 * `submit` for the person to approve and for a model to misread. Only controls that act on the
 * page (publish, save, post, submit a form, go to another page) remain actions.
 *
 * Checked (2026-12-01) against the chrome of the editors issue 24 tried: a ProseMirror markdown
 * editor's row of plain toolbar buttons, Trix's `<trix-toolbar>` (trix 2.1), Lexical's playground
 * `div.toolbar` of aria-labelled icon buttons, and the element paths of TinyMCE 7 and CKEditor 4.
 *
 * `isEditorChrome` is pure, over a plain description; `controlOf` reads one from the page, and
 * where the control sits relative to an editor is read only when a rule asks (`besideEditor`).
 */
import { editableFrom } from './editables.ts';

export interface Control {
  /** The text on it (or its value). */
  label: string;
  /** Its aria-label and title. */
  hints: string;
  /** It sits inside the editable text itself (a widget, a code block's language picker). */
  insideEditable: boolean;
  /** A toggle (aria-pressed), in a toolbar or menu by role, or in an editor library's known chrome. */
  knownChrome: boolean;
  /** In an element whose tag, class or id says toolbar, menu bar or status bar. */
  inNamedBar: boolean;
  /** It submits its form, or is a link to another page. */
  leavesPage: boolean;
  /** It is inside an editor's container (a few levels above an editable surface); asked only when a rule needs it. */
  besideEditor: () => boolean;
}

/** Words that say a control acts on the page, whatever bar it is in (en, ko). */
const ACTS_ON_PAGE = /\b(publish|save|post|submit|send|done)\b|발행|게시|등록|저장|올리기|완료|보내기|전송/i;

/** Words that say a control changes the text (en, ko): in its label, aria-label or title. */
const CHANGES_TEXT =
  /\b(bold|italics?|underline|strike\w*|headings?|h[1-6]|paragraph|bullet\w*|number(s|ed|ing)|lists?|checklist|task|(un)?links?|(block)?quote|code(block)?s?|indent|outdent|undo|redo|table|images?|picture|photos?|video|embed|emoji|attach\w*|align\w*|font|colou?r|highlight|format\w*|subscript|superscript|divider|horizontal|hr|markdown|wysiwyg|preview|source)\b|굵게|기울|밑줄|취소선|제목|머리글|목록|글머리|번호 ?매기기|링크|인용|코드|들여|내어|실행 ?취소|다시 ?실행|되돌리기|이미지|사진|동영상|첨부|정렬|글꼴|글자|서식|구분선|(^|\s)표(\s|$)/i;

/** An element path's crumb: a tag name, perhaps with its class or id (`body`, `h2`, `p.lead`). */
const CRUMB =
  /^(html|body|div|span|p|h[1-6]|[ou]l|li|a|[bisu]|em|strong|blockquote|pre|code|table|thead|tbody|t[rdh]|img|figure|section|article|header|footer|su[bp]|del|ins|mark)([.#][\w-]+)*$/i;

export function isEditorChrome(control: Control): boolean {
  if (control.insideEditable) return true;
  // Icon names and slugs join words with _ or - (format_bold, insert-image).
  const words = `${control.label} ${control.hints}`.replace(/[_-]/g, ' ');
  if (control.leavesPage || ACTS_ON_PAGE.test(words)) return false;
  if (control.knownChrome) return true;
  const says = control.inNamedBar || CHANGES_TEXT.test(words) || CRUMB.test(control.label.trim());
  return says && control.besideEditor();
}

const NAMED_BAR = /tool-?bar|menu-?bar|status-?bar/i;

/** Where text is edited: what an editor's chrome sits beside. */
const SURFACES = 'textarea, [contenteditable]:not([contenteditable="false"]), iframe';

/** How far above a surface its editor's container may be (Editor.js's blocks are four levels in). */
const CONTAINER_LEVELS = 5;

/**
 * The elements that may be an editor's container: the few levels above each surface, below the
 * body. Read once per reading of the page, and only when a control asks.
 */
export function editorContainers(doc: Document): () => Set<Element> {
  let containers: Set<Element> | undefined;
  return () => {
    if (containers) return containers;
    containers = new Set();
    for (const surface of Array.from(doc.querySelectorAll(SURFACES))) {
      // A frame is a surface only when it holds an editor (not an advert or a video).
      if (surface.localName === 'iframe' && !editableFrom(surface)) continue;
      let node = surface.parentElement;
      for (let level = 0; node && node !== doc.body && level < CONTAINER_LEVELS; level += 1, node = node.parentElement) containers.add(node);
    }
    return containers;
  };
}

function leavesPage(element: Element): boolean {
  const button = element as HTMLButtonElement;
  if ((element.localName === 'button' || element.localName === 'input') && button.type === 'submit')
    return element.localName === 'input' || button.form !== null;
  const href = element.localName === 'a' ? (element as HTMLAnchorElement).href : '';
  return /^https?:/.test(href) && href.split('#')[0] !== element.ownerDocument.location.href.split('#')[0];
}

/** The description `isEditorChrome` judges, read from the page; `label` is the one the action list shows. */
export function controlOf(element: Element, label: string, knownChrome: boolean, containers: () => Set<Element>): Control {
  let inNamedBar = false;
  for (let node = element.parentElement; node && !inNamedBar; node = node.parentElement) {
    inNamedBar = NAMED_BAR.test(`${node.localName} ${node.id} ${node.getAttribute('class') ?? ''}`);
  }
  return {
    label,
    hints: `${element.getAttribute('aria-label') ?? ''} ${element.getAttribute('title') ?? ''}`,
    insideEditable: element.parentElement?.isContentEditable === true,
    knownChrome,
    inNamedBar,
    leavesPage: leavesPage(element),
    besideEditor: () => {
      const set = containers();
      for (let node = element.parentElement; node; node = node.parentElement) if (set.has(node)) return true;
      return false;
    },
  };
}
