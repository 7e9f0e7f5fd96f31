/**
 * The function the worker runs in a WordPress block editor page's main world, once per call
 * (`scripting.executeScript({ world: "MAIN", func, args })`, the bound document only): it reaches
 * the editor through WordPress's globals (`wp.data`, `wp.blocks`, as wp-admin exposes them), and
 *
 * - `insert-image`: hands the File to the editor's own `mediaUpload` setting
 *   (`select('core/block-editor').getSettings().mediaUpload`, which WordPress sets to
 *   @wordpress/editor's `mediaUpload` → @wordpress/media-utils' `uploadMedia` → POST
 *   `/wp/v2/media`), waits for its `onFileChange` with the stored media (the first call carries a
 *   blob: preview, skipped), and only then inserts `createBlock('core/image', { id, url, alt })`
 *   with `insertBlocks` (one undo level; a failed upload inserts nothing);
 * - `replace` (a fill): Tether's HTML through the editor's own `pasteHandler` (@wordpress/blocks'
 *   raw handling, what its clipboard handler calls on a paste, mode BLOCKS), and `replaceBlocks` of
 *   every top-level block with what it made (one undo level, as a paste over every block) — only
 *   if the store's fingerprint is still the one the act module read, checked in the same task as
 *   the write (nothing a person types can come between);
 * - `remove-image`: `removeBlocks` of that block, if it is still a core/image at that url;
 * - every op: lists the store's blocks back (client id, name, parent, an image's url and alt), the
 *   store's fingerprint (a hash of every block's id, name and attributes) and its text.
 *
 * Self-contained (the browser serializes it; nothing outside it exists there), and it leaves
 * nothing behind: no global, no listener; its one timer is cleared when it answers, and a late
 * `onFileChange` after it gave up inserts nothing. Everything it touches may be the page's: it
 * returns only values it built, which the worker (shared/page/blockEditorCall.ts) and the act module
 * (content/editors/wordpress/media.ts, against the rendered blocks) check again.
 *
 * Checked 2026-12-01 against @wordpress/block-editor 18.0.0 (settings.mediaUpload, insertBlocks,
 * removeBlocks, getBlocks, replaceBlocks; writing-flow/use-clipboard-handler.js for what a paste
 * over every block does), @wordpress/blocks 16.1.0 (createBlock, pasteHandler),
 * @wordpress/rich-text 7.56.0 (RichTextData's toHTMLString), @wordpress/data 10.56.0, and
 * @wordpress/media-utils 5.55 on GitHub (uploadMedia: onFileChange with blob: previews first,
 * then the transformed attachment `{ id, url: source_url, alt: alt_text }`).
 */
import type { BlockEditorAnswer, BlockEditorCall, ListedBlock } from '../../shared/page/blockEditorCall.ts';

export async function blockEditorMain(call: BlockEditorCall, origin: string): Promise<BlockEditorAnswer> {
  // The origin the worker checked (see smartEditorMain.ts): `location` cannot be redefined by a page.
  if (location.origin !== origin) return { ok: false, reason: 'host', message: 'the tab left the page Tether checked' };
  // Repeated here, not imported: the function is run without its module.
  const MAX_BLOCKS = 5000;
  const MAX_URL = 2048;
  const MAX_TEXT = 2_000_000;
  const words = (value: unknown): string => {
    try {
      return String(value).slice(0, 300);
    } catch {
      return 'unreadable';
    }
  };
  type Fn = (...args: unknown[]) => unknown;
  const method = (owner: unknown, name: string): Fn | null => {
    if ((typeof owner !== 'object' && typeof owner !== 'function') || owner === null) return null;
    const found = (owner as Record<string, unknown>)[name];
    return typeof found === 'function' ? (found as Fn).bind(owner) : null;
  };
  const text = (value: unknown, max: number): string | undefined => (typeof value === 'string' && value.length <= max ? value : undefined);
  try {
    const wp = (window as unknown as { wp?: unknown }).wp;
    const data = typeof wp === 'object' && wp !== null ? (wp as Record<string, unknown>).data : undefined;
    const blocksApi = typeof wp === 'object' && wp !== null ? (wp as Record<string, unknown>).blocks : undefined;
    const select = method(data, 'select');
    const dispatch = method(data, 'dispatch');
    if (!select || !dispatch) return { ok: false, reason: 'missing', message: 'no wp.data on this page' };
    const store = select('core/block-editor');
    const actions = dispatch('core/block-editor');
    const getBlocks = method(store, 'getBlocks');
    const getSettings = method(store, 'getSettings');
    const getBlockIndex = method(store, 'getBlockIndex');
    const getBlockRootClientId = method(store, 'getBlockRootClientId');
    if (!getBlocks || !getSettings || !getBlockIndex || !getBlockRootClientId) return { ok: false, reason: 'shape', message: 'no core/block-editor store' };

    const list = (): ListedBlock[] | null => {
      const out: ListedBlock[] = [];
      const stack: Array<{ block: unknown; parent: string }> = [];
      const top = getBlocks();
      if (!Array.isArray(top)) return null;
      for (let index = top.length - 1; index >= 0; index -= 1) stack.push({ block: top[index], parent: '' });
      while (stack.length > 0) {
        const next = stack.pop();
        if (!next || typeof next.block !== 'object' || next.block === null) return null;
        const block = next.block as { clientId?: unknown; name?: unknown; attributes?: unknown; innerBlocks?: unknown };
        const id = text(block.clientId, 36);
        const name = text(block.name, 200);
        if (id === undefined || name === undefined) return null;
        const attributes = typeof block.attributes === 'object' && block.attributes !== null ? (block.attributes as Record<string, unknown>) : {};
        const listed: ListedBlock = { clientId: id, name, parent: next.parent };
        if (name === 'core/image') {
          const url = text(attributes.url, MAX_URL);
          const alt = text(attributes.alt, 2000);
          if (url !== undefined) listed.url = url;
          if (alt !== undefined) listed.alt = alt;
        }
        out.push(listed);
        if (out.length > MAX_BLOCKS) return null;
        const inner = Array.isArray(block.innerBlocks) ? block.innerBlocks : [];
        for (let index = inner.length - 1; index >= 0; index -= 1) stack.push({ block: inner[index], parent: id });
      }
      return out;
    };
    // A rich-text attribute is a RichTextData (toHTMLString) or, in older blocks, a string.
    const html = (value: unknown): string => {
      if (typeof value === 'string') return value;
      const toHtml = method(value, 'toHTMLString');
      const made = toHtml ? toHtml() : undefined;
      return typeof made === 'string' ? made : '';
    };
    const shown = (value: unknown): string => new DOMParser().parseFromString(html(value).replace(/<br\s*\/?>/gi, '\n'), 'text/html').body.textContent ?? '';
    type Block = { clientId?: unknown; name?: unknown; attributes?: unknown; innerBlocks?: unknown };
    const attributesOf = (block: Block): Record<string, unknown> =>
      typeof block.attributes === 'object' && block.attributes !== null ? (block.attributes as Record<string, unknown>) : {};
    const innerOf = (block: Block): Block[] => (Array.isArray(block.innerBlocks) ? (block.innerBlocks as Block[]) : []);
    // A block's lines as the page shows them: its rich text, its inner blocks' (a list, a list
    // item's nested list, a quote), then a quote's citation or an image's caption.
    const lines = (block: Block, depth: number): string[] => {
      if (depth > 100) return [];
      const attributes = attributesOf(block);
      const own = attributes.content ?? attributes.value;
      const after = [attributes.citation, attributes.caption].map((value) => (value === undefined ? '' : shown(value))).filter((piece) => piece !== '');
      return [
        ...(own === undefined ? [] : shown(own).split('\n')),
        ...innerOf(block).flatMap((child) => lines(child, depth + 1)),
        ...after.flatMap((piece) => piece.split('\n')),
      ];
    };
    // Every block's id, name and attributes, hashed (cyrb53): the store as it is at this moment.
    const fingerprint = (): string => {
      let h1 = 0xdeadbeef;
      let h2 = 0x41c6ce57;
      const feed = (piece: string) => {
        for (let at = 0; at < piece.length; at += 1) {
          const code = piece.charCodeAt(at);
          h1 = Math.imul(h1 ^ code, 2654435761);
          h2 = Math.imul(h2 ^ code, 1597334677);
        }
        h1 = Math.imul(h1 ^ 0x1f, 2654435761);
      };
      const value = (item: unknown): string => {
        if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') return String(item);
        if (method(item, 'toHTMLString')) return html(item);
        try {
          return JSON.stringify(item) ?? '';
        } catch {
          return 'unreadable';
        }
      };
      const walk = (blocks: unknown, depth: number) => {
        if (!Array.isArray(blocks) || depth > 100) return;
        for (const block of blocks as Block[]) {
          feed(`${String(block.clientId)}|${String(block.name)}|`);
          const attributes = attributesOf(block);
          for (const key of Object.keys(attributes).sort()) feed(`${key}=${value(attributes[key])};`);
          feed('[');
          walk(block.innerBlocks, depth + 1);
          feed(']');
        }
      };
      walk(getBlocks(), 0);
      h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
      h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
      return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
    };
    const answer = (inserted?: { clientId: string; url: string }): BlockEditorAnswer => {
      const blocks = list();
      if (!blocks) return { ok: false, reason: 'too-large', message: 'the store’s blocks are not a readable list' };
      const top = getBlocks() as Block[];
      const storeText = top.map((block) => lines(block, 0).join('\n')).join('\n');
      if (storeText.length > MAX_TEXT) return { ok: false, reason: 'too-large', message: 'the store’s text is longer than Tether reads' };
      const read = { ok: true as const, blocks, fingerprint: fingerprint(), text: storeText };
      return inserted ? { ...read, inserted } : read;
    };

    if (call.op === 'read') return answer();

    if (call.op === 'replace') {
      const pasteHandler = method(blocksApi, 'pasteHandler');
      const createBlock = method(blocksApi, 'createBlock');
      const replaceBlocks = method(actions, 'replaceBlocks');
      const insertBlocks = method(actions, 'insertBlocks');
      if (!pasteHandler || !createBlock || !replaceBlocks || !insertBlocks)
        return { ok: false, reason: 'shape', message: 'no wp.blocks.pasteHandler, createBlock or replaceBlocks' };
      // The blocks are made first; the check and the write then run with nothing in between.
      const pasted = call.html === '' && call.text === '' ? [] : pasteHandler({ HTML: call.html, plainText: call.text, mode: 'BLOCKS' });
      if (!Array.isArray(pasted)) return { ok: false, reason: 'shape', message: 'the editor’s pasteHandler made no blocks' };
      // A clear, or nothing the editor keeps: one empty paragraph, as its removeBlocks leaves.
      const made = pasted.length > 0 ? pasted : [createBlock('core/paragraph', {})];
      const top = getBlocks() as Block[];
      const same = top.length === call.replace.length && top.every((block, at) => block.clientId === call.replace[at]);
      if (!same || fingerprint() !== call.expect)
        return { ok: false, reason: 'changed', message: 'the post changed since Tether read it; nothing was written' };
      // Selecting the end of the last block made, as the editor's paste over every block does; a
      // store with no block yet (the editor shows only its appender) gets them inserted.
      if (call.replace.length === 0) await insertBlocks(made, 0, '', true, -1);
      else await replaceBlocks(call.replace, made, made.length - 1, -1);
      return answer();
    }

    if (call.op === 'remove-image') {
      const removeBlocks = method(actions, 'removeBlocks');
      if (!removeBlocks) return { ok: false, reason: 'shape', message: 'no removeBlocks' };
      const held = (list() ?? []).find((block) => block.clientId === call.clientId);
      // Only Tether's block, as it put it in: anything else there now is the person's.
      if (held && held.name === 'core/image' && held.url === call.url) await removeBlocks([call.clientId], false);
      return answer();
    }

    const upload = method(getSettings(), 'mediaUpload');
    if (!upload) return { ok: false, reason: 'shape', message: 'the editor has no mediaUpload setting: it cannot upload' };
    const createBlock = method(blocksApi, 'createBlock');
    const insertBlocks = method(actions, 'insertBlocks');
    if (!createBlock || !insertBlocks) return { ok: false, reason: 'shape', message: 'no wp.blocks.createBlock or insertBlocks' };
    // Where it goes, before anything is uploaded.
    let root = '';
    let index = (getBlocks() as unknown[]).length;
    // A null arrives as undefined on Chromium 156 (smartEditorMain.ts): only a string names a block.
    if (typeof call.after === 'string') {
      const at = getBlockIndex(call.after);
      if (typeof at !== 'number' || at < 0) return { ok: false, reason: 'missing', message: 'the block to put the image after is not in the store' };
      const parent = getBlockRootClientId(call.after);
      root = typeof parent === 'string' ? parent : '';
      index = at + 1;
    }

    const binary = atob(call.bytes);
    const bytes = new Uint8Array(binary.length);
    for (let at = 0; at < binary.length; at += 1) bytes[at] = binary.charCodeAt(at);
    const file = new File([bytes], call.name, { type: call.type });
    const stored = await new Promise<{ id?: number; url: string } | { problem: string }>((resolve) => {
      let settled = false;
      const finish = (value: { id?: number; url: string } | { problem: string }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(value);
      };
      const timer = setTimeout(() => finish({ problem: `the upload did not finish within ${Math.round(call.limitMs / 1000)} s` }), call.limitMs);
      try {
        void Promise.resolve(
          upload({
            filesList: [file],
            allowedTypes: ['image'],
            onFileChange: (media: unknown) => {
              const first = Array.isArray(media) ? (media[0] as unknown) : undefined;
              if (typeof first !== 'object' || first === null) return;
              const url = text((first as { url?: unknown }).url, MAX_URL);
              // uploadMedia's first call is the blob: preview; the stored media comes after.
              if (url === undefined || !/^https?:\/\//i.test(url)) return;
              const id = (first as { id?: unknown }).id;
              finish(typeof id === 'number' && Number.isSafeInteger(id) ? { id, url } : { url });
            },
            onError: (error: unknown) => {
              const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : error;
              finish({ problem: `the site’s media upload failed: ${words(message)}` });
            },
          }),
        ).catch((error: unknown) => finish({ problem: `the editor’s mediaUpload threw: ${words(error instanceof Error ? error.message : error)}` }));
      } catch (error) {
        finish({ problem: `the editor’s mediaUpload threw: ${words(error instanceof Error ? error.message : error)}` });
      }
    });
    if ('problem' in stored) return { ok: false, reason: 'upload', message: stored.problem };
    const block = createBlock('core/image', { ...(stored.id === undefined ? {} : { id: stored.id }), url: stored.url, alt: call.alt }) as {
      clientId?: unknown;
    };
    const id = text(block?.clientId, 36);
    if (id === undefined) return { ok: false, reason: 'shape', message: 'createBlock made no block' };
    // updateSelection false: the person's caret stays where it was.
    await insertBlocks([block], index, root, false);
    return answer({ clientId: id, url: stored.url });
  } catch (error) {
    return { ok: false, reason: 'threw', message: words(error instanceof Error ? error.message : error) };
  }
}
