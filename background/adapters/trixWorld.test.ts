import { describe, expect, it } from 'vitest';
import { callTrix, isTrixCall, type TrixWorldDeps } from './trixWorld.ts';

const read = { kind: 'trix', op: 'read', index: 0 };
const good = {
  ok: true,
  attachments: [{ id: 1, url: 'https://notes.example/uploads/0.png', href: '', caption: 'Lake', alt: 'Lake', contentType: 'image/png', pending: false }],
  text: 'A\uFFFC\n',
};

function deps(url: string, documentId = 'DOC-A', run: TrixWorldDeps['run'] = async () => good) {
  const ran: unknown[] = [];
  return {
    ran,
    deps: {
      topDocument: async () => ({ documentId, url }),
      run: async (tabId: number, id: string, call: Parameters<TrixWorldDeps['run']>[2], origin: string) => {
        ran.push({ tabId, id, call, origin });
        return run(tabId, id, call, origin);
      },
      timeoutMs: 50,
    } satisfies TrixWorldDeps,
  };
}

describe('Trix main-world calls: only the bound document, only calls Tether makes, only answers shaped as Trix’s', () => {
  it('runs a well-formed call in the bound document with the origin it checked', async () => {
    const { deps: d, ran } = deps('https://notes.example/editor/trix');
    expect(await callTrix(d, { tabId: 3, documentId: 'DOC-A' }, read)).toEqual(good);
    expect(ran).toEqual([{ tabId: 3, id: 'DOC-A', call: read, origin: 'https://notes.example' }]);
    expect(isTrixCall(read)).toBe(true);
    expect(isTrixCall({ op: 'read', frame: null, key: 'blogpc001' })).toBe(false);
  });

  it('never runs when the tab shows another document now, or a page that is not a web page', async () => {
    for (const [url, documentId] of [
      ['https://notes.example/editor/trix', 'DOC-B'],
      ['chrome-extension://abc/panel.html', 'DOC-A'],
      ['not a url', 'DOC-A'],
    ] as const) {
      const { deps: d, ran } = deps(url, documentId);
      expect(await callTrix(d, { tabId: 3, documentId: 'DOC-A' }, read)).toMatchObject({ ok: false, reason: 'host' });
      expect(ran).toEqual([]);
    }
  });

  it.each([
    ['an unknown op', { ...read, op: 'insertHTML' }],
    ['a script of its own', { ...read, code: 'alert(1)' }],
    ['an index past the limit', { ...read, index: 10_000 }],
    ['a huge caption', { kind: 'trix', op: 'describe', index: 0, id: 1, url: 'https://x/y.png', caption: 'x'.repeat(5000) }],
    ['not an object', 'read'],
  ])('refuses %s without running it', async (_, request) => {
    const { deps: d, ran } = deps('https://notes.example/editor/trix');
    expect(await callTrix(d, { tabId: 3, documentId: 'DOC-A' }, request)).toMatchObject({ ok: false, reason: 'invalid' });
    expect(ran).toEqual([]);
  });

  it.each([
    ['an answer of another shape', { ok: true, attachments: 'all of them' }],
    ['an attachment with an extra field', { ...good, attachments: [{ ...good.attachments[0], script: 'x' }] }],
    ['an oversized address', { ...good, attachments: [{ ...good.attachments[0], url: `https://x/${'a'.repeat(5000)}` }] }],
    ['too many attachments', { ...good, attachments: new Array(201).fill(good.attachments[0]) }],
    ['nothing', undefined],
  ])('a page answering %s is not believed', async (_, answer) => {
    const { deps: d } = deps('https://notes.example/editor/trix', 'DOC-A', async () => answer);
    expect(await callTrix(d, { tabId: 3, documentId: 'DOC-A' }, read)).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it('a page that never answers times out; one whose injection throws fails, both as values', async () => {
    const silent = deps('https://notes.example/editor/trix', 'DOC-A', () => new Promise(() => undefined));
    expect(await callTrix(silent.deps, { tabId: 3, documentId: 'DOC-A' }, read)).toMatchObject({ ok: false, reason: 'timeout' });
    const thrown = deps('https://notes.example/editor/trix', 'DOC-A', async () => {
      throw new Error('Frame with ID 0 was removed.');
    });
    expect(await callTrix(thrown.deps, { tabId: 3, documentId: 'DOC-A' }, read)).toEqual({
      ok: false,
      reason: 'failed',
      message: 'Frame with ID 0 was removed.',
    });
  });
});
