/**
 * Trix 2.1, as its README sets it up: a `<trix-editor input="…">` custom element, which makes
 * its own `<trix-toolbar>` and keeps its document in the hidden input it names (what a form
 * posts). Its model is the element's `editor.getDocument()`.
 *
 * Attachments upload as the README's "Storing Attached Files" does (trix 2.1.19, checked
 * 2026-12-01; ActionText's attachment_upload.js the same way): a `trix-attachment-add` listener
 * posts `attachment.file` (multipart, field `file`) to the site's endpoint with progress, then
 * `attachment.setAttributes({ url, href })`. A failed upload takes the attachment out
 * (`attachment.remove()`). `?noupload`: no listener at all, so Trix keeps only the File (nothing
 * reaches the site).
 */
import 'trix';
import { exposeEditor } from './editorPage.ts';

interface TrixAttachment {
  file?: File;
  setUploadProgress(progress: number): void;
  setAttributes(attributes: Record<string, string>): void;
  remove(): void;
}

interface TrixElement extends HTMLElement {
  editor: { getDocument(): { toString(): string } };
}

function upload(attachment: TrixAttachment, file: File): void {
  const form = new FormData();
  form.append('Content-Type', file.type);
  form.append('file', file, file.name);
  const xhr = new XMLHttpRequest();
  xhr.open('POST', '/api/uploads', true);
  xhr.upload.addEventListener('progress', (event) => attachment.setUploadProgress((event.loaded / event.total) * 100));
  xhr.addEventListener('load', () => {
    const answer = xhr.status === 200 ? (JSON.parse(xhr.responseText) as { url?: unknown }) : null;
    if (typeof answer?.url === 'string') attachment.setAttributes({ url: answer.url, href: answer.url });
    else {
      document.body.dataset.uploadError = `the upload failed (${xhr.status})`;
      attachment.remove();
    }
  });
  xhr.addEventListener('error', () => attachment.remove());
  xhr.send(form);
}

if (!new URLSearchParams(location.search).has('noupload')) {
  addEventListener('trix-attachment-add', (event) => {
    const attachment = (event as Event & { attachment: TrixAttachment }).attachment;
    if (attachment.file) upload(attachment, attachment.file);
  });
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
