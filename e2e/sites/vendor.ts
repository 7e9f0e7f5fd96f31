/**
 * Editor libraries pages load from the site itself, as self-hosted installs do (TinyMCE and CKEditor 4
 * load their theme, skin, icons, language and plugins by URL next to their main script). Only the listed packages, only
 * files inside them.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize, sep } from 'node:path';

const require = createRequire(import.meta.url);
const PACKAGES: Record<string, string> = {
  tinymce: dirname(require.resolve('tinymce/package.json')),
  ckeditor4: dirname(require.resolve('ckeditor4/package.json')),
};
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

export async function vendorFile(path: string): Promise<{ type: string; content: string | Buffer } | null> {
  const [name, ...rest] = path.split('/');
  const root = name ? PACKAGES[name] : undefined;
  const type = TYPES[extname(path)];
  if (!root || !type) return null;
  const file = normalize(join(root, ...rest));
  if (!file.startsWith(root + sep)) return null;
  try {
    return { type, content: await readFile(file) };
  } catch {
    return null;
  }
}
