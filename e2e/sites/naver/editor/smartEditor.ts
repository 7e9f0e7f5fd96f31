/**
 * A SmartEditor ONE for the fixture pages, built from the public record (SOURCES.md): the document
 * model is the truth (model.ts), the canvas is rendered from it (render.ts) and takes no typing,
 * keystrokes and pastes go to a hidden `input_buffer` iframe, and the editor object sits at
 * `window.SmartEditor._editors.<key>` with its document service and image uploader.
 *
 * What the record does not say is chosen here and marked "guessed" in SOURCES.md: the undo
 * history (programmatic document writes reset it, edits through the buffer are undoable), what
 * Ctrl+A selects (the whole document, title included), where a click puts the caret (the end of
 * the clicked paragraph), and how a paste maps onto components.
 */
import {
  clone,
  contentText,
  emptyDocument,
  isEmptyContent,
  normalize,
  paragraph,
  paragraphText,
  seId,
  textComponent,
  textNode,
  titleOf,
  titleText,
  type Component,
  type DocumentData,
  type ImageComponent,
  type NodeStyle,
  type Paragraph,
  type TextNode,
} from './model.ts';
import { componentClass, componentInner, componentTitle } from './render.ts';

export type ApiShape = 'full' | 'none' | 'renamed' | 'forged' | 'throws';

export interface EditorOptions {
  key: 'blogpc001' | 'cafepc001';
  /** The element the editor builds itself into. */
  mount: HTMLElement;
  bodyPlaceholder: string;
  /** The switch: keydown events with isTrusted false do nothing (one public poster reports it; the record is mixed). */
  ignoreUntrustedKeys: boolean;
  api: ApiShape;
  /** Where the uploader gets its session key and posts files (the fixture's upphoto host). */
  upload: { sessionKeyUrl: string; uploadUrl(sessionKey: string): string; domain: string };
  /** Called after every change of the model (autosave, the page's own checks). */
  onChange?(data: DocumentData): void;
}

type Caret = { where: 'title'; offset: number } | { where: 'body'; item: number; offset: number };

/** The body, flat: each text component's paragraphs, and every other component as one item. */
type Item = { kind: 'p'; paragraph: Paragraph; component: string } | { kind: 'c'; component: Component };

/** A pasted block: a paragraph, or a component the paste becomes (quotation, divider). */
type Block = { kind: 'p'; paragraph: Paragraph } | { kind: 'c'; component: Component };

export interface UploadResult {
  code: 'SUCCESS';
  response: {
    url: string;
    path: string;
    fileName: string;
    width: number;
    height: number;
    fileSize: number;
    thumbnail: string;
    imageType: string;
    domain: string;
  };
}

export class FixtureSmartEditor {
  data: DocumentData = emptyDocument();
  private caret: Caret = { where: 'body', item: 0, offset: 0 };
  private all = false;
  private undoStack: string[] = [];
  private redoStack: string[] = [];
  private lastTypingAt = 0;
  private renderQueued = false;
  readonly canvas: HTMLElement;
  readonly buffer: HTMLIFrameElement;
  readonly popupHost: HTMLElement;
  /** What the forged API claims the document is (a page lying about its model). */
  private claimed: unknown = null;

  constructor(readonly options: EditorOptions) {
    options.mount.innerHTML = `<div class="se-wrap se-editor">
<header class="se-header"><ul class="se-toolbar se-document-toolbar">
<li class="se-toolbar-item se-toolbar-item-image"><button type="button" class="se-image-toolbar-button se-document-toolbar-basic-button" data-name="image" data-log="dot.img"><span class="se-toolbar-label">사진</span></button></li>
<li class="se-toolbar-item se-toolbar-item-text-format"><button type="button" class="se-text-format-toolbar-button" data-name="text-format"><span class="se-toolbar-label">본문</span></button></li>
<li class="se-toolbar-item se-toolbar-item-insert-quotation"><button type="button" class="se-document-toolbar-icon-select-button" data-name="quotation"><span class="se-toolbar-tooltip">인용구 추가</span></button></li>
<li class="se-toolbar-item"><button type="button" class="se-bold-toolbar-button" data-name="bold"><span class="se-toolbar-tooltip">굵게</span></button></li>
<li class="se-toolbar-item"><button type="button" class="se-strikethrough-toolbar-button" data-name="strikethrough"><span class="se-toolbar-tooltip">취소선</span></button></li>
<li class="se-toolbar-item"><button type="button" class="se-link-toolbar-button" data-name="text-link"><span class="se-toolbar-tooltip">링크</span></button></li>
</ul></header>
<div class="se-input-buffer-holder" style="position:absolute;width:0;height:0;overflow:hidden"><iframe id="input_buffer" title="input buffer" style="width:0;height:0;border:0"></iframe></div>
<div class="se-container"><div class="se-content"><section class="se-canvas se-native-selection-hidden"><article class="se-components-wrap"></article></section></div></div>
<div class="se-popup-host"></div>
</div>`;
    this.canvas = options.mount.querySelector<HTMLElement>('.se-components-wrap') as HTMLElement;
    this.buffer = options.mount.querySelector<HTMLIFrameElement>('#input_buffer') as HTMLIFrameElement;
    this.popupHost = options.mount.querySelector<HTMLElement>('.se-popup-host') as HTMLElement;
    this.canvas.addEventListener('mousedown', (event) => this.placeCaret(event));
    this.attachBuffer();
    this.render();
  }

  // ---- the document ----

  private get components(): Component[] {
    return this.data.document.components;
  }

  private items(): Item[] {
    const items: Item[] = [];
    for (const component of this.components) {
      if (component['@ctype'] === 'documentTitle') continue;
      if (component['@ctype'] === 'text') for (const item of component.value) items.push({ kind: 'p', paragraph: item, component: component.id });
      else items.push({ kind: 'c', component });
    }
    return items;
  }

  /** Groups the flat body back into components; a group keeps the id of its first paragraph's component. */
  private setItems(items: Item[]): void {
    const used = new Set<string>();
    const body: Component[] = [];
    let group: { id: string; paragraphs: Paragraph[] } | null = null;
    const close = () => {
      if (group) body.push({ ...textComponent(group.paragraphs), id: group.id });
      group = null;
    };
    for (const item of items) {
      if (item.kind === 'c') {
        close();
        body.push(item.component);
        continue;
      }
      if (!group) {
        const id: string = used.has(item.component) ? seId() : item.component;
        used.add(id);
        group = { id, paragraphs: [] };
      }
      (group as { paragraphs: Paragraph[] }).paragraphs.push(item.paragraph);
    }
    close();
    if (body[body.length - 1]?.['@ctype'] !== 'text') body.push(textComponent([]));
    this.data.document.components = [titleOf(this.data.document), ...body];
  }

  private changed(): void {
    this.scheduleRender();
    this.options.onChange?.(clone(this.data));
  }

  /** Loads a document as the editor's own (the temporary-save prompt's 확인 does). */
  load(data: DocumentData): void {
    this.data = { document: normalize(data, this.data.document), documentId: this.data.documentId };
    this.resetHistory();
    this.caret = { where: 'body', item: Math.max(0, this.items().length - 1), offset: 0 };
    this.changed();
  }

  // ---- the document service (the API public scripts call) ----

  getDocumentData(): DocumentData {
    if (this.options.api === 'forged' && this.claimed !== null) return clone(this.claimed) as DocumentData;
    return clone(this.data);
  }

  setDocumentData(input: unknown): void {
    if (this.options.api === 'throws') throw new TypeError("setDocumentData: Cannot read properties of undefined (reading 'forEach')");
    if (this.options.api === 'forged') {
      // A page that answers what it was told and keeps nothing of it.
      this.claimed = clone(input);
      return;
    }
    const next = normalize(input, this.data.document);
    this.data = { document: next, documentId: this.data.documentId };
    // Guessed (the record is silent on undo): loading a document replaces the history.
    this.resetHistory();
    this.all = false;
    this.caret = { where: 'body', item: Math.max(0, this.items().length - 1), offset: 0 };
    this.changed();
  }

  getDocumentTitle(): string {
    return titleText(this.data.document);
  }

  setDocumentTitle(text: unknown): void {
    const title = titleOf(this.data.document);
    title.title = [paragraph([textNode(String(text ?? ''))])];
    this.resetHistory();
    this.changed();
  }

  getContentText(): string {
    return contentText(this.data.document);
  }

  isEmptyDocumentContent(): boolean {
    return isEmptyContent(this.data.document);
  }

  /** The object the page exposes as `SmartEditor._editors.<key>`. */
  publicEditor(): Record<string, unknown> {
    const documentService = {
      getDocumentData: () => this.getDocumentData(),
      setDocumentData: (input: unknown) => this.setDocumentData(input),
      getContentText: () => this.getContentText(),
      resetDocumentData: () => this.setDocumentData(emptyDocument()),
    };
    const imageUploadService = {
      maxImageUploadSize: 20 * 1024 * 1024,
      createSourceList: (ids: unknown, files: unknown) => this.createSourceList(ids, files),
      uploadImagesFromFiles: (list: unknown) => this.uploadImagesFromFiles(list),
    };
    if (this.options.api === 'renamed') {
      // A redesign: the model is reached by other names; nothing the record names is there.
      return {
        _documentModelService: { getModel: () => this.getDocumentData(), applyModel: (input: unknown) => this.setDocumentData(input) },
        getTitle: () => this.getDocumentTitle(),
      };
    }
    return {
      _documentService: documentService,
      _videoUploadService: { _imageUploadService: imageUploadService },
      getDocumentData: documentService.getDocumentData,
      setDocumentData: documentService.setDocumentData,
      getDocumentTitle: () => this.getDocumentTitle(),
      setDocumentTitle: (text: unknown) => this.setDocumentTitle(text),
      getContentText: documentService.getContentText,
      isEmptyDocumentContent: () => this.isEmptyDocumentContent(),
      getComponentsByCtype: (ctype: unknown) => clone(this.components.filter((component) => component['@ctype'] === ctype)),
    };
  }

  /**
   * Puts the editor object where every public script looks for it (unless the page is the one
   * without it), and the fixture's own handle for tests (never what Tether calls): the model as
   * the editor really holds it.
   */
  expose(): void {
    const scope = window as unknown as { SmartEditor?: unknown; __fixture?: unknown };
    if (this.options.api !== 'none') {
      const editors: Record<string, unknown> = { [this.options.key]: this.publicEditor() };
      scope.SmartEditor = { _editors: editors, getEditor: (id?: string) => editors[id ?? this.options.key] };
    }
    scope.__fixture = { model: () => clone(this.data), undoDepth: () => this.undoDepth };
  }

  // ---- undo (guessed) ----

  private snapshot(): string {
    return JSON.stringify({ data: this.data, caret: this.caret });
  }

  private remember(typing = false): void {
    const now = Date.now();
    if (!typing || now - this.lastTypingAt > 1000) this.undoStack.push(this.snapshot());
    this.lastTypingAt = typing ? now : 0;
    this.redoStack.length = 0;
  }

  private resetHistory(): void {
    this.undoStack.length = 0;
    this.redoStack.length = 0;
    this.lastTypingAt = 0;
  }

  private restore(state: string): void {
    const parsed = JSON.parse(state) as { data: DocumentData; caret: Caret };
    this.data = parsed.data;
    this.caret = parsed.caret;
    this.all = false;
    this.changed();
  }

  /** How many undo steps the editor holds (the test reads it to say what Ctrl+Z can undo). */
  get undoDepth(): number {
    return this.undoStack.length;
  }

  // ---- rendering ----

  private scheduleRender(): void {
    if (this.renderQueued) return;
    this.renderQueued = true;
    // Renders after the call that changed the model returns, as the live (React) editor commits later.
    setTimeout(() => {
      this.renderQueued = false;
      this.render();
    }, 0);
  }

  render(): void {
    const existing = new Map(Array.from(this.canvas.children).map((element) => [element.id, element as HTMLElement]));
    const options = { view: 'editor' as const, bodyPlaceholder: this.options.bodyPlaceholder, bodySize: 'fs15' };
    let firstText = true;
    const elements: HTMLElement[] = [];
    for (const component of this.components) {
      // One element per component, kept while its id lives (as a keyed React list keeps it); its inside is rendered anew.
      const element = existing.get(component.id) ?? document.createElement('div');
      element.id = component.id;
      element.className = componentClass(component);
      const a11y = componentTitle(component);
      if (a11y) element.dataset.a11yTitle = a11y;
      else delete element.dataset.a11yTitle;
      element.innerHTML = componentInner(component, options, component['@ctype'] === 'text' && firstText);
      if (component['@ctype'] === 'text') firstText = false;
      elements.push(element);
    }
    this.canvas.replaceChildren(...elements);
    this.canvas.classList.toggle('se-is-all-selected', this.all);
  }

  // ---- the caret and the input buffer ----

  private placeCaret(event: MouseEvent): void {
    event.preventDefault();
    this.all = false;
    const target = (event.target as HTMLElement).closest('.se-text-paragraph');
    if (target?.closest('.se-documentTitle')) {
      this.caret = { where: 'title', offset: this.getDocumentTitle().length };
    } else {
      const items = this.items();
      const index = target ? items.findIndex((item) => item.kind === 'p' && item.paragraph.id === target.id) : -1;
      const lastParagraph = [...items.keys()].reverse().find((key) => items[key]?.kind === 'p') ?? 0;
      const item = index >= 0 ? index : lastParagraph;
      const found = items[item];
      this.caret = { where: 'body', item, offset: found?.kind === 'p' ? paragraphText(found.paragraph).length : 0 };
    }
    this.buffer.focus();
    this.buffer.contentDocument?.body.focus();
    this.render();
  }

  private attachBuffer(): void {
    const attach = () => {
      const doc = this.buffer.contentDocument;
      if (!doc?.body) return;
      const body = doc.body;
      body.contentEditable = 'true';
      body.addEventListener('input', (event) => {
        if ((event as InputEvent).isComposing) return;
        const text = body.textContent ?? '';
        body.textContent = '';
        if (!text) return;
        this.remember(true);
        this.insert(text.split(/\r?\n/).map((line) => ({ kind: 'p' as const, paragraph: paragraph(line ? [textNode(line)] : []) })));
        this.changed();
      });
      body.addEventListener('compositionend', () => body.dispatchEvent(new Event('input')));
      // Synthetic pastes are taken (HAN, C3, NBP, AIM: the well-sourced way in).
      body.addEventListener('paste', (event) => {
        event.preventDefault();
        const html = event.clipboardData?.getData('text/html') ?? '';
        const text = event.clipboardData?.getData('text/plain') ?? '';
        const blocks = html
          ? blocksFromHtml(html)
          : text.split(/\r?\n/).map((line) => ({ kind: 'p' as const, paragraph: paragraph(line ? [textNode(line)] : []) }));
        if (blocks.length === 0) return;
        this.remember();
        this.insert(blocks);
        this.changed();
      });
      doc.addEventListener('keydown', (event) => this.key(event));
    };
    // The buffer's document is about:blank, ready at once; a browser that loads it later fires load.
    if (this.buffer.contentDocument?.readyState === 'complete') attach();
    else this.buffer.addEventListener('load', attach, { once: true });
  }

  private key(event: KeyboardEvent): void {
    if (!event.isTrusted && this.options.ignoreUntrustedKeys) return;
    const ctrl = event.ctrlKey || event.metaKey;
    const name = event.key.toLowerCase();
    if (ctrl && name === 'a') {
      event.preventDefault();
      this.all = true;
      this.render();
    } else if (ctrl && (name === 'z' || name === 'y')) {
      event.preventDefault();
      const redo = name === 'y' || event.shiftKey;
      const state = redo ? this.redoStack.pop() : this.undoStack.pop();
      if (state) {
        (redo ? this.undoStack : this.redoStack).push(this.snapshot());
        this.restore(state);
      }
    } else if (ctrl && name === 'end') {
      event.preventDefault();
      this.all = false;
      const items = this.items();
      const last = items.length - 1;
      const found = items[last];
      this.caret = { where: 'body', item: last, offset: found?.kind === 'p' ? paragraphText(found.paragraph).length : 0 };
    } else if (name === 'enter') {
      event.preventDefault();
      if (this.caret.where === 'title') return;
      this.remember();
      this.insert([
        { kind: 'p', paragraph: paragraph([]) },
        { kind: 'p', paragraph: paragraph([]) },
      ]);
      this.changed();
    } else if (name === 'backspace') {
      event.preventDefault();
      this.remember();
      this.backspace();
      this.changed();
    }
  }

  private deleteSelection(): void {
    if (!this.all) return;
    titleOf(this.data.document).title = [paragraph([])];
    this.setItems([{ kind: 'p', paragraph: paragraph([]), component: seId() }]);
    this.caret = { where: 'body', item: 0, offset: 0 };
    this.all = false;
  }

  private backspace(): void {
    if (this.all) return this.deleteSelection();
    if (this.caret.where === 'title') {
      const text = this.getDocumentTitle();
      if (this.caret.offset === 0) return;
      titleOf(this.data.document).title = [paragraph([textNode(text.slice(0, this.caret.offset - 1) + text.slice(this.caret.offset))])];
      this.caret = { where: 'title', offset: this.caret.offset - 1 };
      return;
    }
    const items = this.items();
    const current = items[this.caret.item];
    if (current?.kind !== 'p') return;
    if (this.caret.offset > 0) {
      const [left, right] = splitNodes(current.paragraph.nodes, this.caret.offset);
      const [kept] = splitNodes(left, this.caret.offset - 1);
      current.paragraph.nodes = [...kept, ...right];
      this.caret = { ...this.caret, offset: this.caret.offset - 1 };
    } else {
      const previous = items[this.caret.item - 1];
      if (previous?.kind !== 'p') return;
      const offset = paragraphText(previous.paragraph).length;
      previous.paragraph.nodes = [...previous.paragraph.nodes, ...current.paragraph.nodes];
      items.splice(this.caret.item, 1);
      this.caret = { where: 'body', item: this.caret.item - 1, offset };
    }
    this.setItems(items);
  }

  /** Inserts blocks at the caret: the first merges into the caret's paragraph, the last takes what followed it. */
  private insert(blocks: Block[]): void {
    this.deleteSelection();
    if (this.caret.where === 'title') {
      // The title is one line of plain text: what is pasted there is its text.
      const text = this.getDocumentTitle();
      const added = blocks.map((block) => (block.kind === 'p' ? paragraphText(block.paragraph) : '')).join(' ');
      titleOf(this.data.document).title = [paragraph([textNode(text.slice(0, this.caret.offset) + added + text.slice(this.caret.offset))])];
      this.caret = { where: 'title', offset: this.caret.offset + added.length };
      return;
    }
    const items = this.items();
    const at = Math.min(this.caret.item, items.length - 1);
    const current = items[at];
    if (!current || current.kind !== 'p') {
      // The caret is on a component (an image): what is inserted goes after it.
      const inserted = blocks.map((block): Item => (block.kind === 'p' ? { kind: 'p', paragraph: block.paragraph, component: seId() } : block));
      items.splice(at + 1, 0, ...inserted);
      this.setItems(items);
      this.caret = { where: 'body', item: at + inserted.length, offset: 0 };
      return;
    }
    const [left, right] = splitNodes(current.paragraph.nodes, this.caret.offset);
    const leftEmpty = left.every((node) => node.value === '');
    const out: Item[] = [];
    blocks.forEach((block, index) => {
      if (block.kind === 'c') {
        if (index === 0 && !leftEmpty) out.push({ kind: 'p', paragraph: { ...current.paragraph, nodes: left }, component: current.component });
        out.push(block);
        return;
      }
      if (index === 0) {
        // The first pasted paragraph continues the caret's paragraph (it keeps that paragraph's style unless empty).
        const style = leftEmpty ? block.paragraph.style : current.paragraph.style;
        out.push({
          kind: 'p',
          paragraph: { ...current.paragraph, ...(style ? { style } : {}), nodes: leftEmpty ? block.paragraph.nodes : [...left, ...block.paragraph.nodes] },
          component: current.component,
        });
      } else out.push({ kind: 'p', paragraph: block.paragraph, component: current.component });
    });
    const last = out[out.length - 1];
    let caretItem = at + out.length - 1;
    let caretOffset = 0;
    const rightText = right.map((node) => node.value).join('');
    if (last?.kind === 'p') {
      caretOffset = paragraphText(last.paragraph).length;
      if (rightText !== '') last.paragraph.nodes = [...last.paragraph.nodes, ...right];
    } else if (rightText !== '' || at === items.length - 1) {
      out.push({ kind: 'p', paragraph: paragraph(right), component: seId() });
      caretItem += 1;
    }
    items.splice(at, 1, ...out);
    this.setItems(items);
    this.caret = { where: 'body', item: caretItem, offset: caretOffset };
  }

  // ---- the image uploader (CSH §4, SOURCES.md §6) ----

  private createSourceList(ids: unknown, files: unknown): Array<{ id: string; source: File }> {
    const list = Array.from(files as ArrayLike<unknown>);
    const names = Array.from(ids as ArrayLike<unknown>);
    return list.map((file, index) => {
      // A File from another realm crashes the live uploader (CPL); this one takes any Blob with a name.
      if (!(file instanceof Blob)) throw new TypeError("Cannot read properties of undefined (reading 'toString')");
      return { id: String(names[index] ?? seId()), source: file as File };
    });
  }

  /** Resolves to one promise per file (two awaits, as CSH found): each a {code, response} or a rejection with code FAIL. */
  private async uploadImagesFromFiles(list: unknown): Promise<Array<Promise<UploadResult>>> {
    const sources = Array.from(list as ArrayLike<{ id: string; source: File }>);
    const session = await fetch(this.options.upload.sessionKeyUrl, { credentials: 'include' }).then(
      (response) => response.json() as Promise<{ sessionKey?: string; isSuccess?: boolean }>,
    );
    if (!session.isSuccess || !session.sessionKey) throw { code: 'FAIL', response: { code: 'SERVER_ERROR' } };
    const key = session.sessionKey;
    return sources.map(async ({ source }) => {
      if (source.size > 20 * 1024 * 1024) throw { code: 'FAIL', response: { code: 'CLIENT', message: 'maxImageUploadSize' } };
      const form = new FormData();
      form.append('image', source, source.name || 'image');
      const response = await fetch(this.options.upload.uploadUrl(key), { method: 'POST', body: form, credentials: 'include' });
      if (response.status !== 200) throw { code: 'FAIL', response: { code: response.status >= 500 ? 'SERVER_ERROR' : 'CLIENT' } };
      const item = new DOMParser().parseFromString(await response.text(), 'application/xml').querySelector('item');
      const read = (name: string) => item?.querySelector(name)?.textContent ?? '';
      if (!item) throw { code: 'FAIL', response: { code: 'SERVER_ERROR' } };
      // The answer passed on as parsed (guessed: the record does not say what the editor checks),
      // so a malformed answer reaches the caller as a changed page's would: no url, a number.
      const urlElement = item.querySelector('url');
      const url =
        urlElement === null ? undefined : urlElement.getAttribute('type') === 'number' ? Number(urlElement.textContent) : (urlElement.textContent ?? '');
      return {
        code: 'SUCCESS' as const,
        response: {
          url: url as string,
          path: read('path'),
          fileName: read('fileName'),
          width: Number(read('width')),
          height: Number(read('height')),
          fileSize: Number(read('fileSize')),
          thumbnail: read('thumbnail'),
          imageType: read('imageType'),
          domain: this.options.upload.domain,
        },
      };
    });
  }

  // ---- popups (the temporary-save prompt) ----

  /** Shows SmartEditor's alert-confirm popup; resolves true for 확인, false for 취소. */
  confirm(title: string, text: string): Promise<boolean> {
    return new Promise((resolve) => {
      this.popupHost.innerHTML = `<div class="se-popup-dim"></div><div class="se-popup-container se-popup-alert-confirm" role="dialog"><div class="se-popup-content"><strong class="se-popup-title">${title}</strong><p class="se-popup-alert-text">${text}</p></div><div class="se-popup-button-container"><button type="button" class="se-popup-button se-popup-button-cancel"><span class="se-popup-button-text">취소</span></button><button type="button" class="se-popup-button se-popup-button-confirm"><span class="se-popup-button-text">확인</span></button></div></div>`;
      const answer = (value: boolean) => () => {
        this.popupHost.innerHTML = '';
        resolve(value);
      };
      this.popupHost.querySelector('.se-popup-button-cancel')?.addEventListener('click', answer(false));
      this.popupHost.querySelector('.se-popup-button-confirm')?.addEventListener('click', answer(true));
    });
  }

  get popupOpen(): boolean {
    return this.popupHost.childElementCount > 0;
  }
}

function splitNodes(nodes: TextNode[], offset: number): [TextNode[], TextNode[]] {
  const left: TextNode[] = [];
  const right: TextNode[] = [];
  let seen = 0;
  for (const node of nodes) {
    const end = seen + node.value.length;
    if (end <= offset) left.push(node);
    else if (seen >= offset) right.push(node);
    else {
      left.push({ ...node, value: node.value.slice(0, offset - seen) });
      right.push({ ...node, id: seId(), value: node.value.slice(offset - seen) });
    }
    seen = end;
  }
  return [left.filter((node) => node.value !== '' || left.length === 1), right];
}

/**
 * Pasted HTML in the editor's model (HAN, C3, NBP, JHN; guessed where they are silent): blocks
 * become paragraphs (a <div> each, so styles do not bleed), <b>/<strong>/font-weight bold,
 * <i>/<em> italic, <s>/<del> strike-through, <u> underline, <a href> a link (NBP and C3 say it is
 * kept; JHN says a real paste drops it), headings a bold paragraph in the subheading size,
 * lists list paragraphs, <blockquote> a quotation, <hr> the divider line1; anything else is its text.
 */
export function blocksFromHtml(html: string): Block[] {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  const out: Block[] = [];
  const inline = (node: Node, style: Omit<NodeStyle, '@ctype'>, link: string | undefined, into: TextNode[]) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = (node.textContent ?? '').replace(/\s+/g, ' ');
      if (text) into.push(textNode(text, Object.keys(style).length > 0 ? style : undefined, link));
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const element = node as HTMLElement;
    const name = element.nodeName;
    const next = { ...style };
    let href = link;
    if (name === 'B' || name === 'STRONG' || /font-weight:\s*(bold|[6-9]00)/i.test(element.getAttribute('style') ?? '')) next.bold = true;
    if (name === 'I' || name === 'EM') next.italic = true;
    if (name === 'S' || name === 'DEL' || name === 'STRIKE') next.strikethrough = true;
    if (name === 'U') next.underline = true;
    if (name === 'A' && /^https?:/i.test(element.getAttribute('href') ?? '')) href = element.getAttribute('href') ?? undefined;
    element.childNodes.forEach((child) => inline(child, next, href, into));
  };
  const paragraphOf = (element: Element, style: Omit<NodeStyle, '@ctype'> = {}, list?: 'bullet' | 'decimal'): Paragraph => {
    const nodes: TextNode[] = [];
    element.childNodes.forEach((child) => inline(child, style, undefined, nodes));
    return paragraph(nodes, list ? { list: { type: list, level: 0, '@ctype': 'paragraphListStyle' } } : undefined);
  };
  const walk = (parent: Element) => {
    parent.childNodes.forEach((node) => {
      if (node.nodeType === Node.TEXT_NODE) {
        if (node.textContent?.trim()) out.push({ kind: 'p', paragraph: paragraph([textNode(node.textContent.trim())]) });
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) return;
      const element = node as Element;
      const name = element.nodeName;
      if (name === 'UL' || name === 'OL') {
        element
          .querySelectorAll(':scope > li')
          .forEach((item) => out.push({ kind: 'p', paragraph: paragraphOf(item, {}, name === 'UL' ? 'bullet' : 'decimal') }));
      } else if (name === 'BLOCKQUOTE') {
        const inner = element.querySelectorAll(':scope > p, :scope > div');
        const value = inner.length > 0 ? Array.from(inner).map((child) => paragraphOf(child)) : [paragraphOf(element)];
        out.push({ kind: 'c', component: { id: seId(), layout: 'quotation_line', value, source: null, '@ctype': 'quotation' } });
      } else if (name === 'HR') {
        out.push({ kind: 'c', component: { id: seId(), layout: 'line1', '@ctype': 'horizontalLine' } });
      } else if (/^H[1-6]$/.test(name)) {
        out.push({ kind: 'p', paragraph: paragraphOf(element, { bold: true, fontSizeCode: 'fs24' }) });
      } else if (name === 'P' || name === 'PRE') {
        out.push({ kind: 'p', paragraph: paragraphOf(element) });
      } else if (name === 'DIV' && !element.querySelector('p, div, ul, ol, blockquote, h1, h2, h3, h4, h5, h6, hr, pre')) {
        out.push({ kind: 'p', paragraph: paragraphOf(element) });
      } else if (name === 'BR') {
        out.push({ kind: 'p', paragraph: paragraph([]) });
      } else walk(element);
    });
  };
  walk(body);
  return out;
}

export type { ImageComponent };
