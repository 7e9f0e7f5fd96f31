/**
 * The blog's post editor. One page, several editor kinds (chosen by ?editor=), as different blog
 * platforms build theirs: a textarea, a contenteditable, an editor document inside a same-origin
 * iframe, Quill, and TipTap (ProseMirror). Autosaves drafts and offers to restore them.
 */
import { Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import Quill from 'quill';

interface BodyEditor {
  kind: string;
  get(): string;
  set(text: string): void;
  onChange(listener: () => void): void;
}

const form = document.querySelector<HTMLFormElement>('#post-form');
const kind = form?.dataset.editor ?? 'plain';
const title = document.querySelector<HTMLInputElement>('#post-title');
const category = document.querySelector<HTMLSelectElement>('#post-category');
const banner = document.querySelector<HTMLElement>('.draft-banner');
const status = document.querySelector<HTMLElement>('.status');

function paragraphsHtml(text: string): string {
  const escape = (line: string) => line.replace(/[&<>]/g, (char) => `&#${char.charCodeAt(0)};`);
  return text
    .split('\n')
    .map((line) => `<p>${escape(line)}</p>`)
    .join('');
}

function makeEditor(): BodyEditor {
  if (kind === 'quill') {
    const quill = new Quill('#post-body', { theme: 'snow', placeholder: 'Write your post…' });
    (window as unknown as { quill: Quill }).quill = quill;
    return {
      kind,
      get: () => quill.getText().replace(/\n$/, ''),
      set: (text) => quill.setText(text),
      onChange: (listener) => quill.on('text-change', listener),
    };
  }
  if (kind === 'tiptap') {
    const host = document.querySelector<HTMLElement>('#post-body');
    const editor = new Editor({ element: host ?? undefined, extensions: [StarterKit], content: '' });
    (window as unknown as { tiptap: Editor }).tiptap = editor;
    return {
      kind,
      get: () => editor.getText({ blockSeparator: '\n' }),
      set: (text) => editor.commands.setContent(paragraphsHtml(text)),
      onChange: (listener) => editor.on('update', listener),
    };
  }
  if (kind === 'iframe') {
    const frame = document.querySelector<HTMLIFrameElement>('#post-body-frame');
    const body = () => frame?.contentDocument?.body ?? null;
    return {
      kind,
      get: () => body()?.innerText.replace(/\n$/, '') ?? '',
      set: (text) => {
        const element = body();
        if (element) element.innerHTML = paragraphsHtml(text);
      },
      onChange: (listener) => {
        const attach = () => body()?.addEventListener('input', listener);
        if (frame?.contentDocument?.readyState === 'complete') attach();
        frame?.addEventListener('load', attach);
      },
    };
  }
  if (kind === 'contenteditable') {
    const element = document.querySelector<HTMLElement>('#post-body');
    return {
      kind,
      get: () => element?.innerText.replace(/\n$/, '') ?? '',
      set: (text) => {
        if (element) element.innerHTML = paragraphsHtml(text);
      },
      onChange: (listener) => element?.addEventListener('input', listener),
    };
  }
  const textarea = document.querySelector<HTMLTextAreaElement>('#post-body');
  // A heavy page: every input costs the main thread this long (as some framework-heavy editors do).
  const slowMs = Number(textarea?.dataset.slow ?? 0);
  if (slowMs > 0) {
    textarea?.addEventListener('input', () => {
      const until = performance.now() + slowMs;
      while (performance.now() < until) {
        // busy
      }
    });
  }
  return {
    kind: slowMs > 0 ? 'slow' : 'plain',
    get: () => textarea?.value ?? '',
    set: (text) => {
      if (textarea) textarea.value = text;
    },
    onChange: (listener) => textarea?.addEventListener('input', listener),
  };
}

const body = makeEditor();
// Every title the page ever held, so tests can tell which writes reached which tab.
const titleHistory: string[] = [];
title?.addEventListener('input', () => titleHistory.push(title.value));
(window as unknown as { titleHistory: string[] }).titleHistory = titleHistory;
window.addEventListener('pageshow', (event) => {
  if (event.persisted) (window as unknown as { restoredFromCache: boolean }).restoredFromCache = true;
});
(window as unknown as { blogEditor: unknown }).blogEditor = { kind: body.kind, getBody: () => body.get(), getTitle: () => title?.value ?? '' };

let savedDraft: { title: string; body: string; savedAt: number } | null = null;
let autosaveTimer: ReturnType<typeof setTimeout> | undefined;

function autosave(): void {
  clearTimeout(autosaveTimer);
  autosaveTimer = setTimeout(() => {
    const draft = { title: title?.value ?? '', body: body.get() };
    if (draft.title === '' && draft.body.trim() === '') return;
    void fetch('/api/draft', { method: 'POST', body: JSON.stringify(draft) });
  }, 800);
}

body.onChange(autosave);
title?.addEventListener('input', autosave);

async function offerDraft(): Promise<void> {
  const response = await fetch('/api/draft', { cache: 'no-store' });
  if (response.status !== 200) return;
  savedDraft = (await response.json()) as { title: string; body: string; savedAt: number };
  if (!banner || body.get().trim() !== '' || (title?.value ?? '') !== '') return;
  const time = banner.querySelector('time');
  if (time) time.textContent = new Date(savedDraft.savedAt).toLocaleTimeString();
  banner.hidden = false;
}

document.querySelector('#restore-draft')?.addEventListener('click', () => {
  if (!savedDraft || !banner) return;
  if (title) title.value = savedDraft.title;
  body.set(savedDraft.body);
  banner.hidden = true;
});
document.querySelector('#discard-draft')?.addEventListener('click', () => {
  void fetch('/api/draft', { method: 'DELETE' }).then(() => {
    if (banner) banner.hidden = true;
  });
});
document.querySelector('#save-draft-button')?.addEventListener('click', () => {
  void fetch('/api/draft', { method: 'POST', body: JSON.stringify({ title: title?.value ?? '', body: body.get() }) }).then(() => {
    if (status) status.textContent = 'Draft saved.';
  });
});
document.querySelector('#publish-button')?.addEventListener('click', () => {
  clearTimeout(autosaveTimer);
  void fetch('/api/posts', {
    method: 'POST',
    body: JSON.stringify({ title: title?.value ?? '', body: body.get(), category: category?.value ?? '' }),
  }).then(async (response) => {
    if (response.status !== 201) {
      if (status) status.textContent = 'Could not publish: sign in again.';
      return;
    }
    const post = (await response.json()) as { id: number };
    location.href = `/posts/${post.id}`;
  });
});
void offerDraft();
