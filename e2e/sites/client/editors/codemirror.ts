/**
 * CodeMirror 6 as a markdown editor: the document is markdown source. Images upload on paste and
 * drop the way markdown sites wire it (GitHub's and Discourse's composers, Forem's editor): an
 * image File pasted or dropped goes to the site's upload endpoint (field `file`) through the
 * editor's `EditorView.domEventHandlers` paste/drop handlers (codemirror.net/docs/ref/#view.EditorView^domEventHandlers,
 * @codemirror/view 6.43.15, checked 2026-12-01); a placeholder `![Uploading name…]()` goes in at
 * the caret first (on a line of its own, as Discourse's composer puts it), and is replaced by
 * `![name](stored-url)` when the site answers (the file's name without its extension as the alt,
 * as GitHub writes it), or taken out when the upload fails. ?noupload: no such handler
 * (CodeMirror's own paste, which inserts a clipboard's text only: a pasted file does nothing).
 *
 * ?style= writes what a real site writes for the stored image instead:
 * - `github`: GitHub's comment box: `![Uploading name…]()` first, then
 *   `<img width="W" height="H" alt="name" src="https://…" />` (the form seen in public pull requests
 *   of late 2025, e.g. mchav/granite#16; checked 2026-12-01);
 * - `discourse`: Discourse's composer (discourse/discourse lib/uploads.js imageMarkdown and the
 *   composer upload's placeholder, read 2026-12-01): `[Uploading: name…]()` on a line of its own,
 *   then `![name|WxH](upload://short.ext)`, the short URL the site resolves to its stored copy
 *   (here: window.shortUrls, as Discourse's /uploads/lookup-urls answers);
 * - `embed`: a site that writes the image inline, `![name](data:…)`: no stored copy at all.
 */
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { exposeEditor } from './editorPage.ts';

let uploads = 0;

/** Replaces the first occurrence of `placeholder` in the document (wherever edits since moved it). */
function replacePlaceholder(view: EditorView, placeholder: string, by: string): void {
  const at = view.state.doc.toString().indexOf(placeholder);
  if (at < 0) return;
  view.dispatch({ changes: { from: at, to: at + placeholder.length, insert: by } });
}

const style = new URLSearchParams(location.search).get('style');
const shortUrls: Record<string, string> = {};
(window as unknown as { shortUrls: Record<string, string> }).shortUrls = shortUrls;

/** What the site writes for its stored copy, in the form the page's style names. */
async function storedMarkup(file: File, url: string, alt: string): Promise<string> {
  if (style === 'github' || style === 'discourse') {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    if (style === 'github') return `<img width="${size.width}" height="${size.height}" alt="${alt.replace(/[&"<>]/g, '')}" src="${url}" />`;
    // As Discourse's short URL: base62 of the upload's sha1 (here: of its address), then its extension.
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(url)));
    const short = `upload://${Array.from(digest, (byte) => '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'[byte % 62]).join('')}.${url.split('.').pop() ?? 'png'}`;
    shortUrls[short] = url;
    return `![${alt}|${size.width}x${size.height}](${short})`;
  }
  return `![${alt}](${url})`;
}

async function dataUrl(file: File): Promise<string> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsDataURL(file);
  });
}

async function uploadImage(view: EditorView, file: File, at: number): Promise<void> {
  uploads += 1;
  const name = file.name.replace(/[[\]]/g, '');
  if (style === 'embed') {
    // No upload at all: the file's bytes inline, at the caret.
    const alt = name.replace(/\.[A-Za-z0-9]+$/, '');
    view.dispatch({ changes: { from: at, insert: `![${alt}](${await dataUrl(file)})` } });
    return;
  }
  const placeholder = style === 'discourse' ? `[Uploading: ${name}…${uploads}]()` : `![Uploading ${name}…${uploads}]()`;
  const line = view.state.doc.lineAt(at);
  // On a line of its own: a blank line before it when the caret's line has text, and after it when text follows the caret.
  const before = at > line.from ? '\n\n' : '';
  const after = at < line.to ? '\n\n' : '';
  view.dispatch({ changes: { from: at, insert: `${before}${placeholder}${after}` }, selection: { anchor: at + before.length + placeholder.length } });
  const form = new FormData();
  form.append('file', file, file.name);
  const answer = await fetch('/api/uploads', { method: 'POST', body: form, credentials: 'same-origin' }).catch(() => null);
  const body = answer?.ok ? ((await answer.json().catch(() => null)) as { url?: unknown } | null) : null;
  if (typeof body?.url !== 'string') {
    // As GitHub and Discourse do: the placeholder goes, and the person is told.
    document.body.dataset.uploadError = `the upload failed (${answer?.status ?? 'no answer'})`;
    const found = view.state.doc.toString().indexOf(placeholder);
    if (found >= 0) {
      const start = view.state.doc.sliceString(Math.max(0, found - before.length), found) === before ? found - before.length : found;
      const end =
        view.state.doc.sliceString(found + placeholder.length, found + placeholder.length + after.length) === after
          ? found + placeholder.length + after.length
          : found + placeholder.length;
      view.dispatch({ changes: { from: start, to: end, insert: '' } });
    }
    return;
  }
  const alt = file.name.replace(/\.[A-Za-z0-9]+$/, '').replace(/[[\]\\]/g, '');
  replacePlaceholder(view, placeholder, await storedMarkup(file, body.url, alt));
  // For tests: the site has handled its answer (replaced its placeholder, if it was still there).
  document.body.dataset.uploadSettled = String(uploads);
}

function imageFiles(data: DataTransfer | null): File[] {
  return Array.from(data?.files ?? []).filter((file) => file.type.startsWith('image/'));
}

const uploadOnPaste: Extension = EditorView.domEventHandlers({
  paste(event, view) {
    const files = imageFiles(event.clipboardData);
    if (files.length === 0) return false;
    event.preventDefault();
    for (const file of files) void uploadImage(view, file, view.state.selection.main.head);
    return true;
  },
  drop(event, view) {
    const files = imageFiles(event.dataTransfer);
    if (files.length === 0) return false;
    event.preventDefault();
    const at = view.posAtCoords({ x: event.clientX, y: event.clientY }) ?? view.state.selection.main.head;
    for (const file of files) void uploadImage(view, file, at);
    return true;
  },
});

const noUpload = new URLSearchParams(location.search).has('noupload');
const view = new EditorView({
  parent: document.querySelector<HTMLElement>('#editor') ?? document.body,
  state: EditorState.create({
    doc: '',
    extensions: [history(), keymap.of([...defaultKeymap, ...historyKeymap]), markdown(), EditorView.lineWrapping, ...(noUpload ? [] : [uploadOnPaste])],
  }),
});
(window as unknown as { cmView: EditorView }).cmView = view;
exposeEditor({ family: 'codemirror', html: () => view.state.doc.toString(), text: () => view.state.doc.toString() });
