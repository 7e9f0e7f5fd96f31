/**
 * Fields with no editor library: a textarea, a contenteditable, a designMode iframe document, and
 * a React-controlled textarea whose model is React state.
 */
import { useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { exposeEditor } from './editorPage.ts';

const kind = document.body.dataset.editor ?? 'textarea';

function ReactBody() {
  const [body, setBody] = useState('');
  const latest = useRef(body);
  latest.current = body;
  exposeEditor({ family: 'react', html: () => latest.current, text: () => latest.current });
  return <textarea id="body" name="body" rows={12} aria-label="Body" value={body} onChange={(event) => setBody(event.target.value)} />;
}

if (kind === 'react') {
  const host = document.querySelector('#editor');
  if (host) createRoot(host).render(<ReactBody />);
} else if (kind === 'iframe') {
  const frame = document.querySelector<HTMLIFrameElement>('#editor iframe');
  const body = () => frame?.contentDocument?.body ?? null;
  const ready = () => {
    const doc = frame?.contentDocument;
    if (doc) doc.designMode = 'on';
    exposeEditor({ family: 'designmode', html: () => body()?.innerHTML ?? '', text: () => body()?.innerText.replace(/\n+$/, '') ?? '' });
  };
  if (frame?.contentDocument?.URL === 'about:srcdoc' && frame.contentDocument.readyState === 'complete') ready();
  else frame?.addEventListener('load', ready, { once: true });
} else if (kind === 'locked') {
  // Like editors that accept only real keystrokes: every other edit is cancelled, or undone.
  const element = document.querySelector<HTMLElement>('#editor [contenteditable]');
  const original = element?.innerHTML ?? '';
  for (const type of ['beforeinput', 'paste', 'drop', 'cut']) {
    element?.addEventListener(
      type,
      (event) => {
        if (!event.isTrusted || type !== 'beforeinput' || (event as InputEvent).inputType !== 'insertText') event.preventDefault();
      },
      true,
    );
  }
  if (element)
    new MutationObserver(() => {
      if (element.innerHTML !== original) element.innerHTML = original;
    }).observe(element, { childList: true, subtree: true, characterData: true });
  exposeEditor({ family: 'locked', html: () => element?.innerHTML ?? '', text: () => element?.innerText ?? '' });
} else if (kind === 'contenteditable') {
  const element = document.querySelector<HTMLElement>('#editor [contenteditable]');
  exposeEditor({ family: 'contenteditable', html: () => element?.innerHTML ?? '', text: () => element?.innerText.replace(/\n+$/, '') ?? '' });
} else {
  const textarea = document.querySelector<HTMLTextAreaElement>('#editor textarea');
  exposeEditor({ family: 'textarea', html: () => textarea?.value ?? '', text: () => textarea?.value ?? '' });
}
