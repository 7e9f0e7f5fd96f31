/** TinyMCE 8, self-hosted from node_modules (/vendor/tinymce), editing in its iframe. */
import { exposeEditor } from './editorPage.ts';

interface TinyEditor {
  getContent(options?: { format: string }): string;
  on(event: string, listener: () => void): void;
}
declare const tinymce: { init(options: Record<string, unknown>): Promise<TinyEditor[]> };

void tinymce
  .init({
    selector: '#editor-source',
    license_key: 'gpl',
    base_url: '/vendor/tinymce',
    suffix: '.min',
    plugins: 'lists link',
    toolbar: 'undo redo | blocks | bold italic strikethrough | bullist numlist | link blockquote',
    block_formats: 'Paragraph=p; Heading 2=h2; Heading 3=h3; Heading 4=h4; Preformatted=pre',
    menubar: false,
    promotion: false,
    branding: false,
    height: 320,
    // The site's own upload path (tiny.cloud/docs/tinymce/latest/upload-images): images go to the
    // server, which answers {location}; ?noupload leaves TinyMCE without one (it then embeds data:).
    ...(new URLSearchParams(location.search).has('noupload') ? {} : { images_upload_url: '/api/uploads', automatic_uploads: true }),
  })
  .then(([editor]) => {
    if (editor) exposeEditor({ family: 'tinymce', html: () => editor.getContent(), text: () => editor.getContent({ format: 'text' }).replace(/\n\n/g, '\n') });
  });
