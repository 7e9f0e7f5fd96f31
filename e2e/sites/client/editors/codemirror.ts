/** CodeMirror 6 as a markdown editor: the document is markdown source. */
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { exposeEditor } from './editorPage.ts';

const view = new EditorView({
  parent: document.querySelector<HTMLElement>('#editor') ?? document.body,
  state: EditorState.create({ doc: '', extensions: [history(), keymap.of([...defaultKeymap, ...historyKeymap]), markdown(), EditorView.lineWrapping] }),
});
(window as unknown as { cmView: EditorView }).cmView = view;
exposeEditor({ family: 'codemirror', html: () => view.state.doc.toString(), text: () => view.state.doc.toString() });
