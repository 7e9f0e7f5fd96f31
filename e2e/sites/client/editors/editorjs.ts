/**
 * Editor.js 2.31 with the header and list tools, as its documentation sets it up (a holder, tools
 * by name), the header tool configured for h2–h4. Its model is the JSON `save()` returns: one
 * object per block. `?paste=native` has a paragraph tool
 * whose `pasteConfig` is false (its documented way to leave a paste to the browser), so what is
 * pasted into a paragraph lands inside that one block — the case of issue 24's false "verified".
 *
 * Photos: @editorjs/image 2.10 as its README sets it up (checked 2026-12-01), with a custom
 * `uploader.uploadByFile(file)` that posts the file to the site's endpoint (multipart, field
 * `image`, the tool's default `field`) and resolves `{ success: 1, file: { url } }` (its backend
 * response format); a failed upload resolves `{ success: 0 }` (the tool then shows its notifier and
 * an empty block). Its pasteConfig takes pasted image files. Only with `?images` (so `?noupload`,
 * or no query, has no image tool); e2e editors.spec runs its text checks on both. (The markdown
 * post once refused there was not the image tool: Editor.js's paragraph tool sets a pasted
 * paragraph's text in an animation frame, which Tether now waits for; content/editors/families/editorjs.ts.)
 */
import EditorJSModule from '@editorjs/editorjs';
import Header from '@editorjs/header';
import ImageTool from '@editorjs/image';
import List from '@editorjs/list';
import Paragraph from '@editorjs/paragraph';
import { exposeEditor } from './editorPage.ts';

// Its types say CommonJS (no "type": "module"), so TypeScript sees a namespace; esbuild bundles its ESM build, whose default is the class.
const EditorJS = EditorJSModule as unknown as typeof EditorJSModule.default;
type EditorJS = InstanceType<typeof EditorJS>;
type OutputBlockData = Awaited<ReturnType<EditorJS['save']>>['blocks'][number];

/** @editorjs/paragraph with Editor.js's paste handling off for it. */
class NativePasteParagraph extends (Paragraph as unknown as new (...args: never[]) => object) {
  static get pasteConfig(): false {
    return false;
  }
}

const nativePaste = new URLSearchParams(location.search).get('paste') === 'native';
const noUpload = !new URLSearchParams(location.search).has('images');

async function uploadByFile(file: File): Promise<{ success: 0 | 1; file?: { url: string } }> {
  const form = new FormData();
  form.append('image', file, file.name);
  const answer = await fetch('/api/uploads', { method: 'POST', body: form, credentials: 'same-origin' }).catch(() => null);
  const body = answer?.ok ? ((await answer.json().catch(() => null)) as { url?: unknown } | null) : null;
  if (typeof body?.url !== 'string') {
    document.body.dataset.uploadError = `the upload failed (${answer?.status ?? 'no answer'})`;
    return { success: 0 };
  }
  return { success: 1, file: { url: body.url } };
}
const editor = new EditorJS({
  holder: 'editor',
  ...(nativePaste ? { defaultBlock: 'paragraph' } : {}),
  tools: {
    ...(nativePaste ? { paragraph: { class: NativePasteParagraph as never, inlineToolbar: true } } : {}),
    header: { class: Header as never, inlineToolbar: true, config: { levels: [2, 3, 4], defaultLevel: 2 } },
    list: { class: List as never, inlineToolbar: true },
    ...(noUpload ? {} : { image: { class: ImageTool as never, config: { uploader: { uploadByFile } } } }),
  },
});

interface ListItem {
  content: string;
  items: ListItem[];
}

function textOf(html: string): string {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
}

function itemsHtml(items: ListItem[], tag: string): string {
  return `<${tag}>${items.map((item) => `<li>${item.content}${item.items.length > 0 ? itemsHtml(item.items, tag) : ''}</li>`).join('')}</${tag}>`;
}

function itemLines(items: ListItem[]): string[] {
  return items.flatMap((item) => [textOf(item.content), ...itemLines(item.items)]);
}

/** Each saved block as HTML (what a site renders from the JSON), and its text, one line per block or item. */
function blockHtml(block: OutputBlockData): string {
  const data = block.data as { text?: string; level?: number; style?: string; items?: ListItem[]; file?: { url?: string }; caption?: string };
  if (block.type === 'image')
    return `<figure><img src="${data.file?.url ?? ''}" alt="${textOf(data.caption ?? '')}"><figcaption>${data.caption ?? ''}</figcaption></figure>`;
  if (block.type === 'header') return `<h${data.level ?? 2}>${data.text ?? ''}</h${data.level ?? 2}>`;
  if (block.type === 'list') return itemsHtml(data.items ?? [], data.style === 'ordered' ? 'ol' : 'ul');
  return `<p>${data.text ?? ''}</p>`;
}

function blockLines(block: OutputBlockData): string[] {
  const data = block.data as { text?: string; items?: ListItem[] };
  if (block.type === 'image') return [];
  return block.type === 'list' ? itemLines(data.items ?? []) : [textOf(data.text ?? '')];
}

void editor.isReady.then(() => {
  (window as unknown as { editorjs: EditorJS }).editorjs = editor;
  exposeEditor({
    family: 'editorjs',
    html: async () => (await editor.save()).blocks.map(blockHtml).join(''),
    text: async () =>
      (await editor.save()).blocks
        .flatMap(blockLines)
        .filter((line) => line.trim() !== '')
        .join('\n'),
    model: async () => JSON.stringify((await editor.save()).blocks.map(({ type, data }) => ({ type, data }))),
  });
});
