/**
 * The block editor's main-world function, run against a stand-in page (a `wp.data` store of plain
 * blocks): a fill is written only while the store is as the act module read it — the fingerprint
 * checked in the same task as `replaceBlocks` — and an empty post gets its blocks inserted.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BlockEditorAnswer } from '../../shared/page/blockEditorCall.ts';
import { blockEditorMain } from './blockEditorMain.ts';

interface Block {
  clientId: string;
  name: string;
  attributes: Record<string, unknown>;
  innerBlocks: Block[];
}

const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const paragraph = (n: number, content: string): Block => ({ clientId: ID(n), name: 'core/paragraph', attributes: { content }, innerBlocks: [] });

function page(initial: Block[]) {
  const store = { blocks: initial };
  const calls: string[] = [];
  let next = 100;
  const pasteHandler = ({ HTML }: { HTML: string }) => Array.from(HTML.matchAll(/<p>(.*?)<\/p>/g), (match) => paragraph((next += 1), match[1] ?? ''));
  const wp = {
    data: {
      select: () => ({
        getBlocks: () => store.blocks,
        getSettings: () => ({}),
        getBlockIndex: () => -1,
        getBlockRootClientId: () => '',
      }),
      dispatch: () => ({
        replaceBlocks: (ids: string[], blocks: Block[]) => {
          calls.push(`replace ${ids.length}`);
          store.blocks = [...blocks, ...store.blocks.filter((block) => !ids.includes(block.clientId))];
        },
        insertBlocks: (blocks: Block[], index: number) => {
          calls.push(`insert at ${index}`);
          store.blocks = [...blocks];
        },
      }),
    },
    blocks: { pasteHandler, createBlock: (name: string) => ({ clientId: ID((next += 1)), name, attributes: {}, innerBlocks: [] }) },
  };
  vi.stubGlobal('location', { origin: 'https://blog.example' });
  vi.stubGlobal('window', { wp });
  vi.stubGlobal(
    'DOMParser',
    class {
      parseFromString(html: string) {
        return { body: { textContent: html.replace(/<[^>]*>/g, '') } };
      }
    },
  );
  return { store, calls };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const read = async () => {
  const answer = await blockEditorMain({ op: 'read', editor: 'wordpress-block-editor' }, 'https://blog.example');
  if (!answer.ok || answer.fingerprint === undefined) throw new Error('no read');
  return answer;
};
const replace = (replaceIds: string[], expectPrint: string): Promise<BlockEditorAnswer> =>
  blockEditorMain(
    {
      op: 'replace',
      editor: 'wordpress-block-editor',
      html: '<p>New one.</p><p>New two.</p>',
      text: 'New one.\nNew two.',
      replace: replaceIds,
      expect: expectPrint,
    },
    'https://blog.example',
  );

describe('blockEditorMain: a fill through the store', () => {
  it('replaces every top-level block with what the editor’s pasteHandler made, and reads its text back', async () => {
    const { calls } = page([paragraph(1, 'Only paragraph.')]);
    const before = await read();
    expect(before.text).toBe('Only paragraph.');
    const answer = await replace([ID(1)], before.fingerprint ?? '');
    expect(answer).toMatchObject({ ok: true, text: 'New one.\nNew two.' });
    expect(calls).toEqual(['replace 1']);
  });

  it('a post the person changed since it was read (same blocks, other text): nothing is written', async () => {
    const { store, calls } = page([paragraph(1, 'Only paragraph.')]);
    const before = await read();
    store.blocks = [paragraph(1, 'Only paragraph, and mine.')];
    expect(await replace([ID(1)], before.fingerprint ?? '')).toMatchObject({ ok: false, reason: 'changed' });
    expect(calls).toEqual([]);
    expect(store.blocks[0]?.attributes.content).toBe('Only paragraph, and mine.');
  });

  it('other blocks than the act module named: nothing is written', async () => {
    const { calls } = page([paragraph(1, 'One.'), paragraph(2, 'Two.')]);
    const before = await read();
    expect(await replace([ID(1)], before.fingerprint ?? '')).toMatchObject({ ok: false, reason: 'changed' });
    expect(calls).toEqual([]);
  });

  it('an empty post (no block in the store yet) gets the blocks inserted', async () => {
    const { calls } = page([]);
    const before = await read();
    expect(await replace([], before.fingerprint ?? '')).toMatchObject({ ok: true, text: 'New one.\nNew two.' });
    expect(calls).toEqual(['insert at 0']);
  });

  it('in a document of another origin than the worker checked: nothing is called', async () => {
    const { calls } = page([paragraph(1, 'Only paragraph.')]);
    expect(await blockEditorMain({ op: 'read', editor: 'wordpress-block-editor' }, 'https://other.example')).toMatchObject({ ok: false, reason: 'host' });
    expect(calls).toEqual([]);
  });
});
