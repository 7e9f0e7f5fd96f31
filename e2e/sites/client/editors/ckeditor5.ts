/** CKEditor 5 (classic), as blogs ship it; `?minimal` has only paragraphs, bold and italic. */
import { BlockQuote } from '@ckeditor/ckeditor5-block-quote';
import { Bold, Code, Italic, Strikethrough } from '@ckeditor/ckeditor5-basic-styles';
import { CodeBlock } from '@ckeditor/ckeditor5-code-block';
import { ClassicEditor } from '@ckeditor/ckeditor5-editor-classic';
import { Essentials } from '@ckeditor/ckeditor5-essentials';
import { Heading } from '@ckeditor/ckeditor5-heading';
import { Image, ImageUpload } from '@ckeditor/ckeditor5-image';
import { SimpleUploadAdapter } from '@ckeditor/ckeditor5-upload';
import { Link } from '@ckeditor/ckeditor5-link';
import { List } from '@ckeditor/ckeditor5-list';
import { Paragraph } from '@ckeditor/ckeditor5-paragraph';
import { exposeEditor } from './editorPage.ts';

const minimal = new URLSearchParams(location.search).has('minimal');
const host = document.querySelector<HTMLElement>('#editor');
if (host) void start(host);

async function start(host: HTMLElement): Promise<void> {
  const editor = await ClassicEditor.create(host, {
    licenseKey: 'GPL',
    plugins: minimal
      ? [Essentials, Paragraph, Bold, Italic]
      : [Essentials, Paragraph, Bold, Italic, Strikethrough, Code, Heading, List, Link, BlockQuote, CodeBlock, Image, ImageUpload, SimpleUploadAdapter],
    // Images upload to the site, as the simple upload adapter's docs set it up
    // (ckeditor.com/docs/ckeditor5/latest/features/images/image-upload/simple-upload-adapter.html, checked 2026-12-01).
    ...(minimal ? {} : { simpleUpload: { uploadUrl: '/api/uploads', withCredentials: true } }),
    toolbar: minimal
      ? ['bold', 'italic', 'undo', 'redo']
      : ['heading', 'bold', 'italic', 'strikethrough', 'code', 'link', 'bulletedList', 'numberedList', 'blockQuote', 'codeBlock', 'undo', 'redo'],
    heading: {
      options: [
        { model: 'paragraph', title: 'Paragraph', class: 'ck-heading_paragraph' },
        { model: 'heading2', view: 'h2', title: 'Heading 2', class: 'ck-heading_heading2' },
        { model: 'heading3', view: 'h3', title: 'Heading 3', class: 'ck-heading_heading3' },
        { model: 'heading4', view: 'h4', title: 'Heading 4', class: 'ck-heading_heading4' },
      ],
    },
  });
  (window as unknown as { ckeditor: ClassicEditor }).ckeditor = editor;
  exposeEditor({
    family: 'ckeditor5',
    html: () => editor.getData(),
    text: () => {
      const root = editor.model.document.getRoot();
      if (!root) return '';
      return Array.from(root.getChildren())
        .map((block) =>
          Array.from(editor.model.createRangeIn(block as never).getItems())
            .map((item) => (item.is('$textProxy') ? item.data : item.is('element', 'softBreak') ? '\n' : ''))
            .join(''),
        )
        .join('\n');
    },
  });
}
