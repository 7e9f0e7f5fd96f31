/**
 * Trix 2.1, as its README sets it up: a `<trix-editor input="…">` custom element, which makes
 * its own `<trix-toolbar>` and keeps its document in the hidden input it names (what a form
 * posts). Its model is the element's `editor.getDocument()`.
 */
import 'trix';
import { exposeEditor } from './editorPage.ts';

interface TrixElement extends HTMLElement {
  editor: { getDocument(): { toString(): string } };
}

const element = document.querySelector<TrixElement>('trix-editor');
element?.addEventListener('trix-initialize', () => {
  const input = document.querySelector<HTMLInputElement>('#body-input');
  exposeEditor({
    family: 'trix',
    html: () => input?.value ?? '',
    text: () => element.editor.getDocument().toString().replace(/\n$/, ''),
  });
});
