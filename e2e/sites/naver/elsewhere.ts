/**
 * SmartEditor ONE on a site that is not Naver (notes.localhost/editor/smarteditor-one): the same
 * editor, and a `window.SmartEditor` whose every method records that it was called. Tether must
 * never call it: its model path runs only on the Naver adapters' hosts. A write here goes through
 * the input buffer, or not at all.
 */
import { exposeEditor } from '../client/editors/editorPage.ts';
import { FixtureSmartEditor } from './editor/smartEditor.ts';
import { paragraphText } from './editor/model.ts';

const mount = document.querySelector<HTMLElement>('#editor') as HTMLElement;
const editor = new FixtureSmartEditor({
  key: 'blogpc001',
  mount,
  bodyPlaceholder: '내용을 입력하세요.',
  ignoreUntrustedKeys: false,
  api: 'full',
  upload: { sessionKeyUrl: '/nowhere', uploadUrl: () => '/nowhere', domain: '' },
});
const calls: string[] = [];
const spied = editor.publicEditor();
for (const [name, value] of Object.entries(spied)) {
  if (typeof value === 'function') {
    spied[name] = (...args: unknown[]) => {
      calls.push(name);
      return (value as (...parameters: unknown[]) => unknown)(...args);
    };
  }
}
// Its uploader too (a photo must never be handed to it).
const videos = spied._videoUploadService as { _imageUploadService: Record<string, unknown> };
const uploader = videos._imageUploadService;
for (const [name, value] of Object.entries(uploader)) {
  if (typeof value === 'function') {
    uploader[name] = (...args: unknown[]) => {
      calls.push(`_imageUploadService.${name}`);
      return (value as (...parameters: unknown[]) => unknown)(...args);
    };
  }
}
(window as unknown as { SmartEditor: unknown; __smartEditorCalls: string[] }).SmartEditor = { _editors: { blogpc001: spied, cafepc001: spied } };
(window as unknown as { __smartEditorCalls: string[] }).__smartEditorCalls = calls;
const bodyLines = () =>
  editor.data.document.components.flatMap((component) =>
    component['@ctype'] === 'text' || component['@ctype'] === 'quotation' ? component.value.map(paragraphText) : [],
  );
exposeEditor({ family: 'smarteditor-one', html: () => JSON.stringify(editor.data), text: () => bodyLines().join('\n') });
