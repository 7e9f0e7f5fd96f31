import { describe, expect, it } from 'vitest';
import { callCodemirror, type CodemirrorWorldDeps } from './codemirrorWorld.ts';
import { isCodemirrorCall } from '../../shared/page/codemirrorCall.ts';

const read = { kind: 'codemirror', op: 'read', index: 0 };
const good = { ok: true, text: 'First line\n\nSecond line', anchor: 3, head: 3 };

function deps(url: string, documentId = 'DOC-A', run: CodemirrorWorldDeps['run'] = async () => good) {
  const ran: unknown[] = [];
  return {
    ran,
    deps: {
      topDocument: async () => ({ documentId, url }),
      run: async (tabId: number, id: string, call: Parameters<CodemirrorWorldDeps['run']>[2], origin: string) => {
        ran.push({ tabId, id, call, origin });
        return run(tabId, id, call, origin);
      },
      timeoutMs: 50,
    } satisfies CodemirrorWorldDeps,
  };
}

describe('CodeMirror main-world calls: only the bound document, only calls Tether makes, only answers shaped as its state', () => {
  it('runs a well-formed call in the bound document with the origin it checked', async () => {
    const { deps: d, ran } = deps('https://notes.example/editor/codemirror');
    expect(await callCodemirror(d, { tabId: 3, documentId: 'DOC-A' }, read)).toEqual(good);
    const select = { kind: 'codemirror', op: 'select', index: 0, from: 2, to: 2, length: 23 };
    await callCodemirror(d, { tabId: 3, documentId: 'DOC-A' }, select);
    expect(ran).toEqual([
      { tabId: 3, id: 'DOC-A', call: read, origin: 'https://notes.example' },
      { tabId: 3, id: 'DOC-A', call: select, origin: 'https://notes.example' },
    ]);
    expect(isCodemirrorCall(read)).toBe(true);
    expect(isCodemirrorCall({ kind: 'trix', op: 'read', index: 0 })).toBe(false);
  });

  it('never runs when the tab shows another document now, or a page that is not a web page', async () => {
    for (const [url, documentId] of [
      ['https://notes.example/editor/codemirror', 'DOC-B'],
      ['chrome-extension://abc/panel.html', 'DOC-A'],
      ['not a url', 'DOC-A'],
    ] as const) {
      const { deps: d, ran } = deps(url, documentId);
      expect(await callCodemirror(d, { tabId: 3, documentId: 'DOC-A' }, read)).toMatchObject({ ok: false, reason: 'host' });
      expect(ran).toEqual([]);
    }
  });

  it.each([
    ['an unknown op', { ...read, op: 'dispatch' }],
    ['a change of the text', { ...read, op: 'select', from: 0, to: 0, length: 1, insert: 'x' }],
    ['a select without the length it read', { ...read, op: 'select', from: 0, to: 0 }],
    ['an index past the limit', { ...read, index: 10_000 }],
    ['a negative offset', { ...read, op: 'select', from: -1, to: 0, length: 4 }],
    ['not an object', 'read'],
  ])('refuses %s without running it', async (_, request) => {
    const { deps: d, ran } = deps('https://notes.example/editor/codemirror');
    expect(await callCodemirror(d, { tabId: 3, documentId: 'DOC-A' }, request)).toMatchObject({ ok: false, reason: 'invalid' });
    expect(ran).toEqual([]);
  });

  it.each([
    ['an answer of another shape', { ok: true, text: ['a'] }],
    ['an extra field', { ...good, html: '<img src=x onerror=alert(1)>' }],
    ['a selection outside the text', { ...good, anchor: 99, head: 99 }],
    ['an oversized text', { ...good, text: 'a'.repeat(2_000_001) }],
    ['nothing', undefined],
  ])('a page answering %s is not believed', async (_, answer) => {
    const { deps: d } = deps('https://notes.example/editor/codemirror', 'DOC-A', async () => answer);
    expect(await callCodemirror(d, { tabId: 3, documentId: 'DOC-A' }, read)).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it('a page that never answers times out; one whose injection throws fails, both as values', async () => {
    const silent = deps('https://notes.example/editor/codemirror', 'DOC-A', () => new Promise(() => undefined));
    expect(await callCodemirror(silent.deps, { tabId: 3, documentId: 'DOC-A' }, read)).toMatchObject({ ok: false, reason: 'timeout' });
    const thrown = deps('https://notes.example/editor/codemirror', 'DOC-A', async () => {
      throw new Error('Frame with ID 0 was removed.');
    });
    expect(await callCodemirror(thrown.deps, { tabId: 3, documentId: 'DOC-A' }, read)).toEqual({
      ok: false,
      reason: 'failed',
      message: 'Frame with ID 0 was removed.',
    });
  });
});
