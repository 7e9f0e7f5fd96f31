/**
 * What Tether costs every page and the worker: the content script (injected into every page), the
 * act module (injected only into pages an agent acts on), the site adapters (only into pages an
 * adapter claims), the reader module (only into pages whose article or comments are read) and the
 * service worker, each with every
 * chunk it loads, raw and gzipped, from the product build (dist/).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DIST } from '../e2e/support/launchTether.ts';
import { ACT_MODULE_FILE, READER_MODULE_FILE, SITES_MODULE_FILE } from '../shared/page/pageChannel.ts';

export interface SizeRow {
  part: string;
  files: number;
  bytes: number;
  gzipBytes: number;
}

/** Scripts the worker injects into pages: named in its code, but not loaded by it (or by each other). */
const INJECTED = new Set(['content.js', ACT_MODULE_FILE, SITES_MODULE_FILE, READER_MODULE_FILE]);

/** The file and every chunk it imports, statically or through chrome.runtime.getURL. */
function closure(start: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || (seen.size > 0 && INJECTED.has(file))) return;
    seen.add(file);
    const source = readFileSync(join(DIST, file), 'utf8');
    for (const match of source.matchAll(/["'`](?:\.{1,2}\/|\/)?((?:assets\/)?[\w.-]+\.js)["'`]/g)) {
      const name = match[1] ?? '';
      const path = name.startsWith('assets/') ? name : file.startsWith('assets/') ? `assets/${name}` : name;
      try {
        readFileSync(join(DIST, path));
        visit(path);
      } catch {
        // not a chunk of ours
      }
    }
  };
  visit(start);
  return [...seen];
}

function measure(part: string, start: string): SizeRow {
  const files = closure(start);
  const buffers = files.map((file) => readFileSync(join(DIST, file)));
  return {
    part,
    files: files.length,
    bytes: buffers.reduce((sum, buffer) => sum + buffer.length, 0),
    gzipBytes: buffers.reduce((sum, buffer) => sum + gzipSync(buffer, { level: 9 }).length, 0),
  };
}

export function measureSizes(): SizeRow[] {
  const manifest = JSON.parse(readFileSync(join(DIST, 'manifest.json'), 'utf8')) as {
    background: { service_worker: string };
    content_scripts: Array<{ js: string[] }>;
  };
  return [
    measure('content script (every page)', manifest.content_scripts[0]?.js[0] ?? ''),
    measure('act module (injected into a page on its first act)', ACT_MODULE_FILE),
    measure('site adapters (injected only into a page an adapter claims)', SITES_MODULE_FILE),
    measure('reader module (injected only into a page whose article or comments are read)', READER_MODULE_FILE),
    measure('service worker', manifest.background.service_worker),
  ];
}
