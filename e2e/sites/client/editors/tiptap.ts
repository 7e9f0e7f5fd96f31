/** TipTap (ProseMirror) with the starter kit: headings, lists, quotes, code, links, history. */
import { Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { exposeEditor } from './editorPage.ts';

const editor = new Editor({ element: document.querySelector<HTMLElement>('#editor') ?? undefined, extensions: [StarterKit], content: '' });
(window as unknown as { tiptap: Editor }).tiptap = editor;
exposeEditor({ family: 'prosemirror', html: () => editor.getHTML(), text: () => editor.getText({ blockSeparator: '\n' }) });
