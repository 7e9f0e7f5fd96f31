/** Lexical, rich text (headings, quotes, lists, links, code, images: lexicalImage.ts) or `lexical-plain` (plain text). */
import { CodeNode } from '@lexical/code';
import { createEmptyHistoryState, registerHistory } from '@lexical/history';
import { $generateHtmlFromNodes } from '@lexical/html';
import { LinkNode } from '@lexical/link';
import { ListItemNode, ListNode, registerList } from '@lexical/list';
import { registerPlainText } from '@lexical/plain-text';
import { HeadingNode, QuoteNode, registerRichText } from '@lexical/rich-text';
import { $getRoot, createEditor } from 'lexical';
import { exposeEditor } from './editorPage.ts';
import { ImageNode, registerImages } from './lexicalImage.ts';

const plain = location.pathname.endsWith('lexical-plain');
const root = document.querySelector<HTMLElement>('#editor');
const editor = createEditor({
  namespace: 'post',
  nodes: plain ? [] : [HeadingNode, QuoteNode, ListNode, ListItemNode, LinkNode, CodeNode, ImageNode],
  theme: { text: { bold: 'lx-text-bold', italic: 'lx-text-italic', strikethrough: 'lx-text-strikethrough', code: 'lx-text-code' } },
  onError: (error) => {
    throw error;
  },
});
editor.setRootElement(root);
if (plain) registerPlainText(editor);
else {
  registerRichText(editor);
  registerList(editor);
  registerImages(editor, new URLSearchParams(location.search).has('noupload'));
}
registerHistory(editor, createEmptyHistoryState(), 300);
(window as unknown as { lexicalEditor: typeof editor }).lexicalEditor = editor;
exposeEditor({
  family: plain ? 'lexical-plain' : 'lexical',
  html: () => editor.getEditorState().read(() => $generateHtmlFromNodes(editor, null)),
  text: () =>
    editor
      .getEditorState()
      .read(() => $getRoot().getTextContent())
      .replace(/\n\n/g, '\n'),
});
