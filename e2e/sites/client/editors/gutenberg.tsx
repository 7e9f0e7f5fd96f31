/**
 * The WordPress block editor (Gutenberg) on a page of its own, as the Block Editor Handbook's
 * "Build your own block editor" guide and @wordpress/block-editor's README set it up:
 * `registerCoreBlocks()` from @wordpress/block-library, @wordpress/format-library's formats (bold,
 * italic, link …), and `BlockEditorProvider` (value / onInput / onChange) around `BlockTools`,
 * `WritingFlow`, `ObserveTyping` and `BlockList`. Its model is the block list in the
 * `core/block-editor` store; tests read it through `window.wp.data` (the registry, as WordPress
 * exposes it) and the editor's own serializer (`serialize`).
 *
 * `mediaUpload` in the settings posts a file to the site's media route (`/wp/v2/media`, answered
 * as WordPress's REST API answers: `{id, source_url, alt_text}`), the way @wordpress/editor's
 * `mediaUpload` does through `uploadMedia` (`onFileChange` first with a blob: URL, then with the
 * stored media). `window.wp` holds `data` and `blocks` (createBlock, pasteHandler), as wp-admin's globals do. The undo history is the page's, built like core-data's (an undo level per
 * `onChange`, `onInput` amends the last), on Ctrl+Z / Ctrl+Shift+Z, since @wordpress/block-editor
 * alone has none (WordPress's comes from @wordpress/editor and core-data).
 */
import { BlockEditorKeyboardShortcuts, BlockEditorProvider, BlockList, BlockTools, ObserveTyping, WritingFlow } from '@wordpress/block-editor';
import apiFetchImport from '@wordpress/api-fetch';
import { registerCoreBlocks } from '@wordpress/block-library';
import { createBlock, pasteHandler, serialize } from '@wordpress/blocks';
import * as data from '@wordpress/data';
import { createRoot, useCallback, useRef, useState } from '@wordpress/element';
import '@wordpress/format-library';
import { exposeEditor } from './editorPage.ts';

registerCoreBlocks();

// Its types read as CommonJS under nodenext; the bundle takes its ESM build, whose default is the function.
const apiFetch = apiFetchImport as unknown as typeof apiFetchImport.default;

interface Media {
  id?: number;
  url: string;
  alt: string;
}

interface RestAttachment {
  id: number;
  source_url: string;
  alt_text: string;
}

/**
 * @wordpress/media-utils' uploadMedia in small (5.55 on GitHub, 2026-12-01: upload-media.ts and
 * upload-to-server.ts, not installed here for its dependency tree): a blob: preview first, then
 * each file to the REST media route with @wordpress/api-fetch (`path: '/wp/v2/media?_embed=…'`,
 * multipart `file`), its attachment transformed as transformAttachment does (`url: source_url`,
 * `alt: alt_text`); a failure goes to onError and the preview is dropped (`onFileChange` without it).
 */
function mediaUpload({
  filesList,
  onFileChange,
  onError,
}: {
  filesList: File[];
  onFileChange: (media: Partial<Media>[]) => void;
  onError?: (error: { message: string }) => void;
}) {
  const files = Array.from(filesList);
  onFileChange(files.map((file) => ({ url: URL.createObjectURL(file) })));
  void Promise.all(
    files.map(async (file) => {
      const form = new FormData();
      form.append('file', file, file.name || file.type.replace('/', '.'));
      const answer = await apiFetch<RestAttachment>({ path: '/wp/v2/media?_embed=wp:featuredmedia', body: form, method: 'POST' });
      return { id: answer.id, url: answer.source_url, alt: answer.alt_text };
    }),
  ).then(onFileChange, (error: { message?: string }) => onError?.({ message: error.message ?? 'upload failed' }));
}

/** A block as the store keeps it (@wordpress/blocks' types do not name it). */
interface BlockInstance {
  clientId: string;
  name: string;
  attributes: Record<string, unknown>;
  innerBlocks: BlockInstance[];
}

interface History {
  levels: BlockInstance[][];
  at: number;
}

function Editor() {
  const [blocks, setBlocks] = useState<BlockInstance[]>([]);
  const history = useRef<History>({ levels: [[]], at: 0 });
  const onInput = useCallback((next: BlockInstance[]) => {
    const h = history.current;
    h.levels[h.at] = next;
    setBlocks(next);
  }, []);
  const onChange = useCallback((next: BlockInstance[]) => {
    const h = history.current;
    h.levels = [...h.levels.slice(0, h.at + 1), next];
    h.at = h.levels.length - 1;
    setBlocks(next);
  }, []);
  const onKeyDown = useCallback((event: React.KeyboardEvent) => {
    if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 'z') return;
    const h = history.current;
    const to = event.shiftKey ? h.at + 1 : h.at - 1;
    const level = h.levels[to];
    event.preventDefault();
    if (!level) return;
    h.at = to;
    setBlocks(level);
  }, []);
  return (
    <div className="gutenberg-host" onKeyDown={onKeyDown}>
      <BlockEditorProvider useSubRegistry={false} value={blocks} onInput={onInput} onChange={onChange} settings={{ mediaUpload, hasFixedToolbar: false }}>
        <BlockEditorKeyboardShortcuts.Register />
        <BlockTools>
          <WritingFlow>
            <ObserveTyping>
              <BlockList />
            </ObserveTyping>
          </WritingFlow>
        </BlockTools>
      </BlockEditorProvider>
    </div>
  );
}

const host = document.getElementById('editor');
if (host) createRoot(host).render(<Editor />);

// As wp-admin exposes them: the data registry and the blocks API (createBlock, pasteHandler …; wp-admin's `wp.blocks` is the whole package).
(window as unknown as { wp: { data: typeof data; blocks: { createBlock: typeof createBlock; pasteHandler: typeof pasteHandler } } }).wp = {
  data,
  blocks: { createBlock, pasteHandler },
};

interface SimpleBlock {
  name: string;
  attributes: Record<string, unknown>;
  innerBlocks: SimpleBlock[];
}

function modelBlocks(): BlockInstance[] {
  return (data.select('core/block-editor') as unknown as { getBlocks(): BlockInstance[] }).getBlocks();
}

function simple(block: BlockInstance): SimpleBlock {
  const attributes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(block.attributes)) attributes[key] = value === undefined || value === null ? value : String(value);
  return { name: block.name, attributes, innerBlocks: block.innerBlocks.map(simple) };
}

/** A rich-text attribute's text: a line break (`<br>`, Shift+Enter) is a new line. */
function textOf(html: string): string {
  return new DOMParser().parseFromString(html.replace(/<br\s*\/?>/gi, '\n'), 'text/html').body.textContent ?? '';
}

function lines(block: BlockInstance): string[] {
  if (block.innerBlocks.length > 0) return block.innerBlocks.flatMap(lines);
  const content = block.attributes.content ?? block.attributes.value ?? block.attributes.citation ?? '';
  return textOf(String(content)).split('\n');
}

exposeEditor({
  family: 'wordpress-block-editor',
  html: () => serialize(modelBlocks() as unknown as Parameters<typeof serialize>[0]),
  text: () =>
    modelBlocks()
      .flatMap(lines)
      .filter((line) => line.trim() !== '')
      .join('\n'),
  model: () => Promise.resolve(JSON.stringify(modelBlocks().map(simple))),
});
