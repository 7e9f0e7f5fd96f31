/**
 * The demo sites' browser code, bundled in memory with esbuild when the server starts: the real
 * editor libraries from npm (CKEditor 5, Lexical, TipTap/ProseMirror, Slate, Draft.js, Quill,
 * CodeMirror, Editor.js, Trix; TinyMCE and CKEditor 4 are served self-hosted from node_modules) and React, as real sites ship them.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export type ClientBundles = Map<string, { type: string; content: string }>;

const here = dirname(fileURLToPath(import.meta.url));
const ENTRIES: Record<string, string> = {
  blog: join(here, 'client', 'blogEditor.ts'),
  'blog-react': join(here, 'client', 'blogReact.tsx'),
  cafe: join(here, 'client', 'cafeEditor.ts'),
  session: join(here, 'client', 'sessionWatch.ts'),
  hostile: join(here, 'client', 'hostilePage.ts'),
  'hostile-site': join(here, 'client', 'hostileSite.ts'),
  'reading-restless': join(here, 'client', 'readingRestless.ts'),
  'editor-ckeditor5': join(here, 'client', 'editors', 'ckeditor5.ts'),
  'editor-lexical': join(here, 'client', 'editors', 'lexical.ts'),
  'editor-tiptap': join(here, 'client', 'editors', 'tiptap.ts'),
  'editor-slate': join(here, 'client', 'editors', 'slate.tsx'),
  'editor-draft': join(here, 'client', 'editors', 'draft.tsx'),
  'editor-quill': join(here, 'client', 'editors', 'quill.ts'),
  'editor-tinymce': join(here, 'client', 'editors', 'tinymce.ts'),
  'editor-editorjs': join(here, 'client', 'editors', 'editorjs.ts'),
  'editor-trix': join(here, 'client', 'editors', 'trix.ts'),
  'editor-ckeditor4': join(here, 'client', 'editors', 'ckeditor4.ts'),
  'editor-codemirror': join(here, 'client', 'editors', 'codemirror.ts'),
  'editor-input-buffer': join(here, 'client', 'editors', 'inputBuffer.ts'),
  'editor-native': join(here, 'client', 'editors', 'native.tsx'),
  'editor-attach': join(here, 'client', 'editors', 'attach.ts'),
  'naver-blog-write': join(here, 'naver', 'blogWrite.ts'),
  'editor-smarteditor-one': join(here, 'naver', 'elsewhere.ts'),
  'naver-cafe-write': join(here, 'naver', 'cafeWrite.ts'),
};

/**
 * The WordPress block editor's page is built only when a test asks for it (its bundle is 5.6 MB,
 * 8–13 s to build here), so every other spec's server starts as fast as before. @wordpress/vips
 * and @wordpress/video-conversion (client-side media processing, an experiment off by default,
 * loaded by @wordpress/upload-media with a dynamic import) stay out: vips alone is 15 MB of wasm.
 */
const LAZY: Record<string, { entry: string; styles: string[] }> = {
  'editor-wordpress-block-editor.js': {
    entry: join(here, 'client', 'editors', 'gutenberg.tsx'),
    styles: [
      '@wordpress/components/build-style/style.css',
      '@wordpress/block-editor/build-style/style.css',
      '@wordpress/block-editor/build-style/content.css',
      '@wordpress/block-library/build-style/style.css',
      '@wordpress/block-library/build-style/editor.css',
      '@wordpress/format-library/build-style/style.css',
    ],
  },
};
const lazyBuilt = new Map<string, Promise<{ type: string; content: string } | null>>();

async function buildLazy(name: string): Promise<{ type: string; content: string } | null> {
  const css = /^(.*)\.css$/.exec(name)?.[1];
  const source = LAZY[css ? `${css}.js` : name];
  if (!source) return null;
  if (css) {
    // Their package exports do not list the style sheets: read from node_modules.
    const sheets = await Promise.all(source.styles.map((sheet) => readFile(join(here, '..', '..', 'node_modules', sheet), 'utf8')));
    return { type: 'text/css; charset=utf-8', content: sheets.join('\n') };
  }
  const result = await build({
    entryPoints: [source.entry],
    bundle: true,
    write: false,
    format: 'iife',
    target: 'chrome116',
    jsx: 'automatic',
    jsxImportSource: 'react',
    tsconfigRaw: '{}',
    minify: true,
    logLevel: 'silent',
    external: ['@wordpress/vips', '@wordpress/vips/*', '@wordpress/video-conversion', '@wordpress/video-conversion/*'],
    define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
  });
  const file = result.outputFiles[0];
  return file ? { type: 'text/javascript; charset=utf-8', content: file.text } : null;
}

/** A bundle built on first request (LAZY), then kept for the process. */
export function lazyBundle(name: string): Promise<{ type: string; content: string } | null> {
  let built = lazyBuilt.get(name);
  if (!built) {
    built = buildLazy(name);
    lazyBuilt.set(name, built);
  }
  return built;
}

export async function buildClientBundles(): Promise<ClientBundles> {
  const result = await build({
    entryPoints: ENTRIES,
    bundle: true,
    write: false,
    format: 'iife',
    target: 'chrome116',
    jsx: 'automatic',
    jsxImportSource: 'react',
    // The repository's tsconfig is for the extension (Preact); the sites are React.
    tsconfigRaw: '{}',
    minify: true,
    outdir: 'out',
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
  });
  const bundles: ClientBundles = new Map();
  for (const file of result.outputFiles) {
    const name = file.path.split('/').pop() ?? '';
    bundles.set(name, { type: 'text/javascript; charset=utf-8', content: file.text });
  }
  const require = createRequire(import.meta.url);
  bundles.set('draft.css', { type: 'text/css; charset=utf-8', content: await readFile(require.resolve('draft-js/dist/Draft.css'), 'utf8') });
  bundles.set('quill.snow.css', { type: 'text/css; charset=utf-8', content: await readFile(require.resolve('quill/dist/quill.snow.css'), 'utf8') });
  bundles.set('trix.css', { type: 'text/css; charset=utf-8', content: await readFile(require.resolve('trix/dist/trix.css'), 'utf8') });
  bundles.set('site.css', { type: 'text/css; charset=utf-8', content: await readFile(join(here, 'site.css'), 'utf8') });
  return bundles;
}
