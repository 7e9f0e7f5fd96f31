import { describe, expect, it } from 'vitest';
import { callMainWorld, callSmartEditor, mayCallSmartEditor, type MainWorldDeps } from './mainWorld.ts';

const read = { op: 'read', frame: 'iframe#mainFrame', key: 'blogpc001' };

function deps(url: string, documentId = 'DOC-A', run: MainWorldDeps['run'] = async () => ({ ok: true, data: '{}', title: '' })) {
  const ran: unknown[] = [];
  return {
    ran,
    deps: {
      topDocument: async () => ({ documentId, url }),
      run: async (tabId: number, id: string, call: Parameters<MainWorldDeps['run']>[2], origin: string) => {
        ran.push({ tabId, id, call, origin });
        return run(tabId, id, call, origin);
      },
      allowHttp: false,
      timeoutMs: 50,
    } satisfies MainWorldDeps,
  };
}

describe('SmartEditor ONE main-world calls: only the Naver adapters’ hosts, only the bound document, only calls Tether makes', () => {
  it.each([
    ['https://blog.naver.com/PostWriteForm.naver?blogId=a', false, true],
    ['https://cafe.naver.com/ca-fe/cafes/1/articles/write', false, true],
    ['http://blog.naver.com/alice?Redirect=Write', false, false],
    ['http://blog.naver.com:4173/alice?Redirect=Write', true, true],
    ['https://blog.naver.com.evil.example/', false, false],
    ['https://evil.example/?blog.naver.com', false, false],
    ['https://m.blog.naver.com/alice', false, false],
    ['https://notes.localhost/', true, false],
    ['not a url', true, false],
  ])('%s (http allowed: %s) → %s', (url, allowHttp, expected) => {
    expect(mayCallSmartEditor(url, allowHttp)).toBe(expected);
  });

  it('runs the call in the bound document and passes on a well-formed answer', async () => {
    const { deps: d, ran } = deps('https://blog.naver.com/alice?Redirect=Write');
    expect(await callSmartEditor(d, { tabId: 3, documentId: 'DOC-A' }, read)).toEqual({ ok: true, data: '{}', title: '' });
    // With the origin it checked: the function refuses a document of any other (smartEditorMain.test.ts).
    expect(ran).toEqual([{ tabId: 3, id: 'DOC-A', call: read, origin: 'https://blog.naver.com' }]);
  });

  it('never runs on another host, or when the tab shows another document now', async () => {
    for (const [url, documentId] of [
      ['https://notes.example/editor', 'DOC-A'],
      ['https://blog.naver.com/alice?Redirect=Write', 'DOC-B'],
    ] as const) {
      const { deps: d, ran } = deps(url, documentId);
      expect(await callSmartEditor(d, { tabId: 3, documentId: 'DOC-A' }, read)).toMatchObject({ ok: false, reason: 'host' });
      expect(ran).toEqual([]);
    }
  });

  it('an upload (one photo to the editor’s own uploader) runs only on the Naver adapters’ hosts; a malformed one never runs', async () => {
    const upload = { op: 'upload', frame: 'iframe#mainFrame', key: 'blogpc001', name: 'lake.png', type: 'image/png', bytes: 'iVBORw0KGgo=' };
    const naver = deps('https://blog.naver.com/alice?Redirect=Write');
    expect(await callSmartEditor(naver.deps, { tabId: 3, documentId: 'DOC-A' }, upload)).toMatchObject({ ok: true });
    expect(naver.ran).toHaveLength(1);
    const elsewhere = deps('https://notes.example/editor/smarteditor-one');
    expect(await callSmartEditor(elsewhere.deps, { tabId: 3, documentId: 'DOC-A' }, upload)).toMatchObject({ ok: false, reason: 'host' });
    expect(elsewhere.ran).toEqual([]);
    for (const call of [
      { ...upload, type: 'image/svg+xml' },
      { ...upload, name: '../../etc/passwd' },
      { ...upload, name: '사진.png' },
      { ...upload, bytes: 'A'.repeat(Math.ceil((20 * 1024 * 1024) / 3) * 4 + 4) },
      { ...upload, url: 'https://evil.example/x.png' },
    ]) {
      const fresh = deps('https://blog.naver.com/alice?Redirect=Write');
      expect(await callSmartEditor(fresh.deps, { tabId: 3, documentId: 'DOC-A' }, call)).toMatchObject({ ok: false, reason: 'invalid' });
      expect(fresh.ran).toEqual([]);
    }
  });

  it('refuses calls it does not make: unknown ops, editor keys, frames, extra fields, oversized models', async () => {
    const { deps: d, ran } = deps('https://blog.naver.com/alice?Redirect=Write');
    for (const call of [
      null,
      { ...read, op: 'eval' },
      { ...read, key: 'anything' },
      { ...read, frame: 'iframe' },
      { ...read, code: 'alert(1)' },
      { op: 'write', frame: null, key: 'blogpc001', data: 'x'.repeat(2_000_001), title: null },
    ]) {
      expect(await callSmartEditor(d, { tabId: 3, documentId: 'DOC-A' }, call)).toMatchObject({ ok: false, reason: 'invalid' });
    }
    expect(ran).toEqual([]);
  });

  it('a page that answers in another shape, too much, or never is refused, not passed on', async () => {
    for (const answer of [
      { ok: true, data: 5, title: null },
      { ok: true, data: 'x'.repeat(2_000_001), title: null },
      { ok: true, data: '{}', title: null, extra: 1 },
      'yes',
    ]) {
      const { deps: d } = deps('https://blog.naver.com/a', 'DOC-A', async () => answer);
      expect(await callSmartEditor(d, { tabId: 3, documentId: 'DOC-A' }, read)).toMatchObject({ ok: false, reason: 'invalid' });
    }
    const { deps: hanging } = deps('https://blog.naver.com/a', 'DOC-A', () => new Promise(() => undefined));
    expect(await callSmartEditor(hanging, { tabId: 3, documentId: 'DOC-A' }, read)).toMatchObject({ ok: false, reason: 'timeout' });
    const { deps: throwing } = deps('https://blog.naver.com/a', 'DOC-A', async () => {
      throw new Error('Frame with ID 0 was removed.');
    });
    expect(await callSmartEditor(throwing, { tabId: 3, documentId: 'DOC-A' }, read)).toEqual({
      ok: false,
      reason: 'failed',
      message: 'Frame with ID 0 was removed.',
    });
  });
});

describe('the WordPress block editor’s main-world call: only the bound document, only calls Tether makes, only answers of its shape', () => {
  const read = { op: 'read', editor: 'wordpress-block-editor' };
  const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
  function blockDeps(url: string, documentId = 'DOC-A', answer: unknown = { ok: true, blocks: [] }) {
    const ran: unknown[] = [];
    const d: MainWorldDeps = {
      topDocument: async () => ({ documentId, url }),
      run: async () => {
        throw new Error('not SmartEditor');
      },
      runBlockEditor: async (_tabId, _id, call, origin) => {
        ran.push({ call, origin });
        return answer;
      },
      allowHttp: false,
      timeoutMs: 50,
    };
    return { ran, deps: d };
  }

  it('runs a read in the bound document, on any web host (WordPress is the person’s own), with the origin it checked', async () => {
    const { deps: d, ran } = blockDeps('https://myblog.example/wp-admin/post-new.php');
    expect(await callMainWorld(d, { tabId: 1, documentId: 'DOC-A' }, read)).toEqual({ ok: true, blocks: [] });
    expect(ran).toEqual([{ call: read, origin: 'https://myblog.example' }]);
  });

  it.each([
    ['another document now', 'https://myblog.example/', 'DOC-B', read],
    ['not a web page', 'file:///etc/passwd', 'DOC-A', read],
    ['an op Tether does not make', 'https://myblog.example/', 'DOC-A', { ...read, op: 'eval' }],
    ['a made-up client id', 'https://myblog.example/', 'DOC-A', { op: 'remove-image', editor: 'wordpress-block-editor', clientId: 'x"]', url: 'https://a/' }],
    ['an extra field', 'https://myblog.example/', 'DOC-A', { ...read, code: 'alert(1)' }],
  ])('never runs: %s', async (_what, url, documentId, request) => {
    const { deps: d, ran } = blockDeps(url, documentId);
    expect(await callMainWorld(d, { tabId: 1, documentId: 'DOC-A' }, request)).toMatchObject({ ok: false });
    expect(ran).toEqual([]);
  });

  it.each([
    ['not an object', 'yes'],
    ['a block without a client id', { ok: true, blocks: [{ name: 'core/image', parent: '' }] }],
    ['an oversized url', { ok: true, blocks: [{ clientId: id, name: 'core/image', parent: '', url: `https://a/${'x'.repeat(3000)}` }] }],
    ['a field it never sends', { ok: true, blocks: [], script: 'x' }],
    ['too many blocks', { ok: true, blocks: Array.from({ length: 5001 }, () => ({ clientId: id, name: 'core/paragraph', parent: '' })) }],
  ])('a page answer that is %s is refused as invalid', async (_what, answer) => {
    const { deps: d } = blockDeps('https://myblog.example/', 'DOC-A', answer);
    expect(await callMainWorld(d, { tabId: 1, documentId: 'DOC-A' }, read)).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it('a page that never answers is a timeout', async () => {
    const { deps: d } = blockDeps('https://myblog.example/');
    d.runBlockEditor = () => new Promise(() => undefined);
    expect(await callMainWorld(d, { tabId: 1, documentId: 'DOC-A' }, read)).toMatchObject({ ok: false, reason: 'timeout' });
  });
});
