/** Draft.js (rich text, links decorated) in React, as older blog editors ship it. */
import { CompositeDecorator, convertToRaw, Editor, EditorState, RichUtils, type ContentBlock, type ContentState, type DraftHandleValue } from 'draft-js';
import { useRef, useState, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { exposeEditor } from './editorPage.ts';

function findLinks(block: ContentBlock, callback: (start: number, end: number) => void, content: ContentState): void {
  block.findEntityRanges((character) => {
    const key = character.getEntity();
    return key !== null && content.getEntity(key).getType() === 'LINK';
  }, callback);
}

function Link({ contentState, entityKey, children }: { contentState: ContentState; entityKey: string; children: ReactNode }) {
  const { url } = contentState.getEntity(entityKey).getData() as { url: string };
  return <a href={url}>{children}</a>;
}

const decorator = new CompositeDecorator([{ strategy: findLinks, component: Link }]);

const BLOCK_TAGS: Record<string, string> = {
  unstyled: 'p',
  'header-two': 'h2',
  'header-three': 'h3',
  'header-four': 'h4',
  blockquote: 'blockquote',
  'code-block': 'pre',
  'unordered-list-item': 'ul',
  'ordered-list-item': 'ol',
};
const STYLE_TAGS: Record<string, string> = { BOLD: 'strong', ITALIC: 'em', STRIKETHROUGH: 's', CODE: 'code' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** HTML of Draft's content (convertToRaw), for tests to read the model's structure. */
function serialize(state: EditorState): string {
  const raw = convertToRaw(state.getCurrentContent());
  return raw.blocks
    .map((block) => {
      const opens = new Map<number, string[]>();
      const closes = new Map<number, string[]>();
      const mark = (at: Map<number, string[]>, index: number, tag: string) => at.set(index, [...(at.get(index) ?? []), tag]);
      for (const range of block.inlineStyleRanges) {
        const tag = STYLE_TAGS[range.style];
        if (!tag) continue;
        mark(opens, range.offset, `<${tag}>`);
        mark(closes, range.offset + range.length, `</${tag}>`);
      }
      for (const range of block.entityRanges) {
        const entity = raw.entityMap[range.key];
        if (entity?.type !== 'LINK') continue;
        mark(opens, range.offset, `<a href="${escapeHtml(String((entity.data as { url?: string }).url ?? ''))}">`);
        mark(closes, range.offset + range.length, '</a>');
      }
      let html = '';
      Array.from(block.text).forEach((char, index) => {
        html += (closes.get(index) ?? []).join('') + (opens.get(index) ?? []).join('') + escapeHtml(char);
      });
      html += (closes.get(block.text.length) ?? []).join('');
      const tag = BLOCK_TAGS[block.type] ?? 'p';
      return tag === 'ul' || tag === 'ol' ? `<${tag}><li>${html}</li></${tag}>` : `<${tag}>${html}</${tag}>`;
    })
    .join('');
}

function PostEditor() {
  const [state, setState] = useState(() => EditorState.createEmpty(decorator));
  const latest = useRef(state);
  latest.current = state;
  (window as unknown as { draft: { getEditorState(): EditorState } }).draft = { getEditorState: () => latest.current };
  exposeEditor({
    family: 'draft',
    html: () => serialize(latest.current),
    text: () => latest.current.getCurrentContent().getPlainText('\n'),
  });
  const handleKeyCommand = (command: string, editorState: EditorState): DraftHandleValue => {
    const next = RichUtils.handleKeyCommand(editorState, command);
    if (!next) return 'not-handled';
    setState(next);
    return 'handled';
  };
  return <Editor editorState={state} onChange={setState} handleKeyCommand={handleKeyCommand} placeholder="Write your post…" ariaLabel="Body" />;
}

const host = document.querySelector('#editor');
if (host) createRoot(host).render(<PostEditor />);
