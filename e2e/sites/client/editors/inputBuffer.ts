/**
 * An editor in the pattern of Naver's SmartEditor ONE: the document the person sees is rendered
 * from the editor's model and is not editable; keystrokes and pastes go to a hidden `input_buffer`
 * iframe, whose content the editor takes into its model (at its own caret) and then clears. It
 * keeps its own undo history (Ctrl+Z in the buffer), selects all on Ctrl+A and moves its caret to
 * the end on Ctrl+End.
 */
import { exposeEditor } from './editorPage.ts';

type BlockType = 'p' | 'h2' | 'h3' | 'h4' | 'ul' | 'ol' | 'quote' | 'code';
interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  code?: boolean;
  href?: string;
}
interface Block {
  type: BlockType;
  runs: Run[];
}

let blocks: Block[] = [{ type: 'p', runs: [] }];
/** The caret: a block and an offset in its text; `all` while everything is selected. */
let caret = { block: 0, offset: 0 };
let all = false;
const undo: string[] = [];
const redo: string[] = [];
let lastTypingAt = 0;

const rendered = document.querySelector<HTMLElement>('.se-content');
const frame = document.querySelector<HTMLIFrameElement>('#input_buffer');

const blockText = (block: Block) => block.runs.map((run) => run.text).join('');
const snapshot = () => JSON.stringify({ blocks, caret });

function remember(typing = false): void {
  const now = Date.now();
  // Typing within a second is one undo step, as in most editors.
  if (!typing || now - lastTypingAt > 1000) undo.push(snapshot());
  if (typing) lastTypingAt = now;
  else lastTypingAt = 0;
  redo.length = 0;
}

function restore(state: string): void {
  ({ blocks, caret } = JSON.parse(state) as { blocks: Block[]; caret: typeof caret });
  all = false;
  render();
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

function runHtml(run: Run): string {
  let html = escapeHtml(run.text).replace(/\n/g, '<br>');
  if (run.code) html = `<code>${html}</code>`;
  if (run.strike) html = `<s>${html}</s>`;
  if (run.italic) html = `<em>${html}</em>`;
  if (run.bold) html = `<strong>${html}</strong>`;
  if (run.href) html = `<a href="${escapeHtml(run.href)}">${html}</a>`;
  return html;
}

const TAGS: Record<BlockType, string> = { p: 'p', h2: 'h2', h3: 'h3', h4: 'h4', ul: 'li', ol: 'li', quote: 'blockquote', code: 'pre' };

/** The model as HTML: consecutive list items share one list. */
function modelHtml(): string {
  let html = '';
  blocks.forEach((block, index) => {
    const list = block.type === 'ul' || block.type === 'ol' ? block.type : null;
    const previous = blocks[index - 1];
    if (list && previous?.type !== list) html += `<${list}>`;
    const inner = block.runs.map(runHtml).join('') || '<br>';
    html += `<${TAGS[block.type]} class="se-text-paragraph">${inner}</${TAGS[block.type]}>`;
    if (list && blocks[index + 1]?.type !== list) html += `</${list}>`;
  });
  return html;
}

function render(): void {
  if (!rendered) return;
  rendered.innerHTML = modelHtml();
  rendered.classList.toggle('se-all-selected', all);
}

function splitRuns(runs: Run[], offset: number): [Run[], Run[]] {
  const left: Run[] = [];
  const right: Run[] = [];
  let seen = 0;
  for (const run of runs) {
    const end = seen + run.text.length;
    if (end <= offset) left.push(run);
    else if (seen >= offset) right.push(run);
    else {
      left.push({ ...run, text: run.text.slice(0, offset - seen) });
      right.push({ ...run, text: run.text.slice(offset - seen) });
    }
    seen = end;
  }
  return [left, right];
}

function deleteSelection(): void {
  if (!all) return;
  blocks = [{ type: 'p', runs: [] }];
  caret = { block: 0, offset: 0 };
  all = false;
}

/** Inserts blocks at the caret: the first merges into the caret's block, the last takes what followed. */
function insertBlocks(inserted: Block[]): void {
  deleteSelection();
  const current = blocks[caret.block] ?? { type: 'p' as BlockType, runs: [] };
  const [left, right] = splitRuns(current.runs, caret.offset);
  const first = inserted[0] ?? { type: 'p' as BlockType, runs: [] };
  if (inserted.length === 1) {
    const merged: Block = { type: current.runs.length === 0 ? first.type : current.type, runs: [...left, ...first.runs, ...right] };
    blocks.splice(caret.block, 1, merged);
    caret = { block: caret.block, offset: blockText({ type: 'p', runs: [...left, ...first.runs] }).length };
    return;
  }
  const last = inserted[inserted.length - 1] as Block;
  const head: Block = { type: left.length === 0 ? first.type : current.type, runs: [...left, ...first.runs] };
  const tail: Block = { type: last.type, runs: [...last.runs, ...right] };
  blocks.splice(caret.block, 1, head, ...inserted.slice(1, -1), tail);
  caret = { block: caret.block + inserted.length - 1, offset: blockText(last).length };
}

const BLOCK_OF: Record<string, BlockType> = { P: 'p', DIV: 'p', H1: 'h2', H2: 'h2', H3: 'h3', H4: 'h4', BLOCKQUOTE: 'quote', PRE: 'code' };

/** Pasted HTML in the editor's model (its own schema: what it has no block for becomes a paragraph). */
function blocksFromHtml(html: string): Block[] {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  const out: Block[] = [];
  const inline = (node: Node, marks: Omit<Run, 'text'>, into: Run[]) => {
    if (node.nodeType === 3) {
      if (node.textContent) into.push({ ...marks, text: node.textContent });
      return;
    }
    if (node.nodeType !== 1) return;
    const element = node as HTMLElement;
    const name = element.nodeName;
    if (name === 'BR') return void into.push({ ...marks, text: '\n' });
    const next = { ...marks };
    if (name === 'STRONG' || name === 'B') next.bold = true;
    if (name === 'EM' || name === 'I') next.italic = true;
    if (name === 'S' || name === 'DEL' || name === 'STRIKE') next.strike = true;
    if (name === 'CODE') next.code = true;
    if (name === 'A' && /^https?:/i.test(element.getAttribute('href') ?? '')) next.href = element.getAttribute('href') ?? undefined;
    element.childNodes.forEach((child) => inline(child, next, into));
  };
  const block = (element: HTMLElement, type: BlockType) => {
    const runs: Run[] = [];
    element.childNodes.forEach((child) => inline(child, type === 'code' ? { code: false } : {}, runs));
    out.push({ type, runs });
  };
  const walk = (parent: HTMLElement) => {
    parent.childNodes.forEach((node) => {
      if (node.nodeType === 3) {
        if (node.textContent?.trim()) out.push({ type: 'p', runs: [{ text: node.textContent }] });
        return;
      }
      if (node.nodeType !== 1) return;
      const element = node as HTMLElement;
      if (element.nodeName === 'UL' || element.nodeName === 'OL') {
        element.querySelectorAll(':scope > li').forEach((item) => block(item as HTMLElement, element.nodeName === 'UL' ? 'ul' : 'ol'));
        return;
      }
      if (element.nodeName === 'BLOCKQUOTE' && element.querySelector('p')) {
        element.querySelectorAll(':scope > p').forEach((paragraph) => block(paragraph as HTMLElement, 'quote'));
        return;
      }
      const type = BLOCK_OF[element.nodeName];
      if (type) block(element, type);
      else walk(element);
    });
  };
  walk(body);
  return out;
}

function blocksFromText(text: string): Block[] {
  return text.split(/\r?\n/).map((line) => ({ type: 'p' as BlockType, runs: line ? [{ text: line }] : [] }));
}

function buffer(): { doc: Document; body: HTMLElement } | null {
  const doc = frame?.contentDocument;
  return doc?.body ? { doc, body: doc.body } : null;
}

function attach(): void {
  const parts = buffer();
  if (!parts) return;
  const { doc, body } = parts;
  body.contentEditable = 'true';
  body.addEventListener('input', (event) => {
    if ((event as InputEvent).isComposing) return;
    const text = body.textContent ?? '';
    body.textContent = '';
    if (!text) return;
    remember(true);
    insertBlocks(blocksFromText(text));
    render();
  });
  body.addEventListener('compositionend', () => body.dispatchEvent(new Event('input')));
  body.addEventListener('paste', (event) => {
    event.preventDefault();
    const data = event.clipboardData;
    const html = data?.getData('text/html') ?? '';
    const text = data?.getData('text/plain') ?? '';
    const inserted = html ? blocksFromHtml(html) : blocksFromText(text);
    if (inserted.length === 0) return;
    remember();
    insertBlocks(inserted);
    render();
  });
  doc.addEventListener('keydown', (event) => {
    const ctrl = event.ctrlKey || event.metaKey;
    const key = event.key.toLowerCase();
    if (ctrl && key === 'a') {
      event.preventDefault();
      all = true;
      render();
    } else if (ctrl && key === 'z') {
      event.preventDefault();
      const state = event.shiftKey ? redo.pop() : undo.pop();
      if (state) {
        (event.shiftKey ? undo : redo).push(snapshot());
        restore(state);
      }
    } else if (key === 'end' && ctrl) {
      event.preventDefault();
      all = false;
      caret = { block: blocks.length - 1, offset: blockText(blocks[blocks.length - 1] as Block).length };
      render();
    } else if (key === 'enter') {
      event.preventDefault();
      remember();
      insertBlocks([
        { type: 'p', runs: [] },
        { type: 'p', runs: [] },
      ]);
      render();
    } else if (key === 'backspace') {
      event.preventDefault();
      remember();
      if (all) deleteSelection();
      else if (caret.offset > 0) {
        const current = blocks[caret.block] as Block;
        const [left, right] = splitRuns(current.runs, caret.offset);
        const [kept] = splitRuns(left, caret.offset - 1);
        current.runs = [...kept, ...right];
        caret.offset -= 1;
      }
      render();
    }
  });
}

// A click on the document puts the editor's caret at the end of the clicked block and focuses the buffer.
rendered?.addEventListener('mousedown', (event) => {
  event.preventDefault();
  const target = (event.target as HTMLElement).closest('.se-text-paragraph');
  const index = target ? Array.from(rendered.querySelectorAll('.se-text-paragraph')).indexOf(target) : blocks.length - 1;
  all = false;
  caret = { block: Math.max(0, index), offset: blockText(blocks[Math.max(0, index)] as Block).length };
  frame?.focus();
  buffer()?.body.focus();
  render();
});

// The srcdoc document replaces the frame's initial about:blank one when it loads.
if (frame?.contentDocument?.URL === 'about:srcdoc' && frame.contentDocument.readyState === 'complete') attach();
else frame?.addEventListener('load', attach, { once: true });
render();
exposeEditor({ family: 'input-buffer', html: modelHtml, text: () => blocks.map(blockText).join('\n') });
(window as unknown as { seEditor: unknown }).seEditor = { getDocument: () => blocks };
