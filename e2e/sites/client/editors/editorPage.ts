/**
 * What every editor test page shares: the editor's own API on `window.editorApi` (tests read the
 * editor's model through it, in the page's main world), and a tags field whose page code rewrites
 * what is typed (lower case), so a plan can fail half-way and roll back.
 */
export interface EditorApi {
  family: string;
  /** The editor's own serialization of its model (getData, getHTML, getContent, …). */
  html(): string | Promise<string>;
  /** The text of the editor's model, one block per line. */
  text(): string | Promise<string>;
  /** The model itself where it is not HTML (Editor.js's saved blocks, as JSON). */
  model?: () => Promise<string>;
}

export function exposeEditor(api: EditorApi): void {
  (window as unknown as { editorApi: EditorApi }).editorApi = api;
  document.body.dataset.editorReady = api.family;
}

const tags = document.querySelector<HTMLInputElement>('#tags');
tags?.addEventListener('input', () => {
  const lower = tags.value.toLowerCase();
  if (lower !== tags.value) tags.value = lower;
});
