/**
 * Slate (slate-react) with history and the HTML paste handling Slate's own "paste HTML" example
 * teaches: pasted markup is mapped into Slate's element and mark schema.
 */
import { useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { createEditor, Node as SlateNode, Text, Transforms, type Descendant, type Editor } from 'slate';
import { withHistory } from 'slate-history';
import { Editable, Slate, withReact, type RenderElementProps, type RenderLeafProps } from 'slate-react';
import { exposeEditor } from './editorPage.ts';

type Marks = { bold?: boolean; italic?: boolean; strikethrough?: boolean; code?: boolean };
type PostText = { text: string } & Marks;
type PostElement = { type: string; url?: string; children: Array<PostElement | PostText> };

const ELEMENT_TAGS: Record<string, (element: HTMLElement) => Omit<PostElement, 'children'>> = {
  A: (element) => ({ type: 'link', url: element.getAttribute('href') ?? '' }),
  BLOCKQUOTE: () => ({ type: 'block-quote' }),
  H1: () => ({ type: 'heading-two' }),
  H2: () => ({ type: 'heading-two' }),
  H3: () => ({ type: 'heading-three' }),
  H4: () => ({ type: 'heading-four' }),
  LI: () => ({ type: 'list-item' }),
  OL: () => ({ type: 'numbered-list' }),
  P: () => ({ type: 'paragraph' }),
  PRE: () => ({ type: 'code-block' }),
  UL: () => ({ type: 'bulleted-list' }),
};
const TEXT_TAGS: Record<string, Marks> = {
  CODE: { code: true },
  DEL: { strikethrough: true },
  EM: { italic: true },
  I: { italic: true },
  S: { strikethrough: true },
  STRIKE: { strikethrough: true },
  STRONG: { bold: true },
  B: { bold: true },
};

function deserialize(node: globalThis.Node): Array<PostElement | PostText> {
  if (node.nodeType === 3) return [{ text: node.textContent ?? '' }];
  if (node.nodeType !== 1) return [];
  const element = node as HTMLElement;
  if (element.nodeName === 'BR') return [{ text: '\n' }];
  const inPre = element.nodeName === 'PRE';
  let children = Array.from(element.childNodes).flatMap((child) => deserialize(child));
  // Between blocks, the whitespace of the markup is not text (Slate keeps blocks and text apart).
  if (!inPre && children.some((child) => !Text.isText(child) && child.type !== 'link')) {
    children = children.filter((child) => !Text.isText(child) || child.text.trim() !== '');
  }
  if (children.length === 0) children = [{ text: '' }];
  const toElement = ELEMENT_TAGS[element.nodeName];
  if (toElement) return [{ ...toElement(element), children }];
  const marks = TEXT_TAGS[element.nodeName];
  if (marks) return children.map((child) => (Text.isText(child) ? { ...child, ...marks } : child));
  return children;
}

function withHtml(editor: Editor): Editor {
  const { insertData, isInline } = editor as Editor & { insertData(data: DataTransfer): void };
  editor.isInline = (element) => (element as unknown as PostElement).type === 'link' || isInline(element);
  (editor as Editor & { insertData(data: DataTransfer): void }).insertData = (data: DataTransfer) => {
    const html = data.getData('text/html');
    if (html) {
      const body = new DOMParser().parseFromString(html, 'text/html').body;
      const fragment = deserialize(body).filter((node) => !Text.isText(node) || node.text.trim() !== '');
      Transforms.insertFragment(editor, fragment as unknown as SlateNode[]);
      return;
    }
    insertData(data);
  };
  return editor;
}

const BLOCK_TAGS: Record<string, string> = {
  paragraph: 'p',
  'heading-two': 'h2',
  'heading-three': 'h3',
  'heading-four': 'h4',
  'block-quote': 'blockquote',
  'code-block': 'pre',
  'bulleted-list': 'ul',
  'numbered-list': 'ol',
  'list-item': 'li',
};

function renderElement({ attributes, children, element }: RenderElementProps) {
  const post = element as unknown as PostElement;
  if (post.type === 'link')
    return (
      <a {...attributes} href={post.url}>
        {children}
      </a>
    );
  const Tag = (BLOCK_TAGS[post.type] ?? 'p') as 'p';
  return <Tag {...attributes}>{children}</Tag>;
}

function renderLeaf({ attributes, children, leaf }: RenderLeafProps) {
  const marks = leaf as unknown as Marks;
  let content = children;
  if (marks.bold) content = <strong>{content}</strong>;
  if (marks.italic) content = <em>{content}</em>;
  if (marks.strikethrough) content = <s>{content}</s>;
  if (marks.code) content = <code>{content}</code>;
  return <span {...attributes}>{content}</span>;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** HTML of Slate's model (editor.children), for tests to read the model's structure. */
function serialize(node: PostElement | PostText): string {
  if (Text.isText(node)) {
    const marks = node as PostText;
    let html = escapeHtml(marks.text);
    if (marks.code) html = `<code>${html}</code>`;
    if (marks.strikethrough) html = `<s>${html}</s>`;
    if (marks.italic) html = `<em>${html}</em>`;
    if (marks.bold) html = `<strong>${html}</strong>`;
    return html;
  }
  const inner = node.children.map(serialize).join('');
  if (node.type === 'link') return `<a href="${escapeHtml(node.url ?? '')}">${inner}</a>`;
  const tag = BLOCK_TAGS[node.type] ?? 'p';
  return `<${tag}>${inner}</${tag}>`;
}

const initial: Descendant[] = [{ type: 'paragraph', children: [{ text: '' }] } as unknown as Descendant];

function PostEditor() {
  const editor = useMemo(() => withHistory(withReact(createEditor())), []);
  useMemo(() => withHtml(editor), [editor]);
  (window as unknown as { slateEditor: Editor }).slateEditor = editor;
  exposeEditor({
    family: 'slate',
    html: () => (editor.children as unknown as PostElement[]).map(serialize).join(''),
    // One line per text block (list items, not whole lists).
    text: () =>
      Array.from(SlateNode.elements(editor))
        .filter(([element]) => !editor.isInline(element) && element.children.every((child) => Text.isText(child) || editor.isInline(child as never)))
        .map(([element]) => SlateNode.string(element))
        .join('\n'),
  });
  return (
    <Slate editor={editor} initialValue={initial}>
      <Editable className="slate-editor" renderElement={renderElement} renderLeaf={renderLeaf} placeholder="Write your post…" aria-label="Body" />
    </Slate>
  );
}

const host = document.querySelector('#editor');
if (host) createRoot(host).render(<PostEditor />);
