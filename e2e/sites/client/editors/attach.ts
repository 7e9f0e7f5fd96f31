/**
 * A page whose photos go in through its own file choosers, as a Tistory-like attach button and a
 * cafe's "cover photo" do: on `change` the page's own script posts each chosen file to the site's
 * upload endpoint (multipart, field `file`, as e2e/sites/uploads.ts answers) and shows the stored
 * copy it gets back (`{location}`) in its list; a failed upload shows a message and no image.
 * Nothing reads the file before the person (or Tether) chose it.
 */
import { exposeEditor } from './editorPage.ts';

const stored: string[] = [];

async function upload(file: File): Promise<string | null> {
  const form = new FormData();
  form.append('file', file, file.name);
  const response = await fetch('/api/uploads', { method: 'POST', body: form, credentials: 'same-origin' }).catch(() => null);
  if (!response?.ok) return null;
  const answer = (await response.json()) as { location?: string };
  return typeof answer.location === 'string' ? answer.location : null;
}

function wire(input: HTMLInputElement | null, show: (src: string) => void): void {
  const status = document.querySelector<HTMLElement>('#attach-status');
  input?.addEventListener('change', async () => {
    for (const file of Array.from(input.files ?? [])) {
      if (status) status.textContent = `Uploading ${file.name}…`;
      const src = await upload(file);
      if (status) status.textContent = src ? `Attached ${file.name}` : `The upload of ${file.name} failed`;
      if (!src) continue;
      stored.push(src);
      show(src);
    }
  });
}

const list = document.querySelector<HTMLElement>('#attached');
wire(document.querySelector<HTMLInputElement>('#attach'), (src) => {
  const item = document.createElement('li');
  const img = document.createElement('img');
  img.src = src;
  img.alt = '';
  img.width = 96;
  item.append(img);
  list?.append(item);
});
wire(document.querySelector<HTMLInputElement>('input[name="cover"]'), (src) => {
  const preview = document.querySelector<HTMLImageElement>('#cover-preview');
  if (preview) {
    preview.src = src;
    preview.hidden = false;
  }
});

exposeEditor({ family: 'attach', html: () => stored.join('\n'), text: () => document.querySelector<HTMLTextAreaElement>('#editor textarea')?.value ?? '' });
