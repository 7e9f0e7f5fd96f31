/**
 * The main-world function, run against a stand-in page: where the tab's top document cannot be
 * pinned by its documentId (Firefox 140 ESR: the worker's commit key, so the injection goes to
 * frame 0, whatever document it holds by then), a tab that navigated between the worker's host
 * check and the injection must not get the call. The function checks the document's own origin
 * (`location`, which a page cannot redefine) before it looks for an editor object at all.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SmartEditorCall } from '../../shared/page/smartEditorCall.ts';
import { smartEditorMain } from './smartEditorMain.ts';

const write: SmartEditorCall = { op: 'write', frame: null, key: 'blogpc001', data: '{"document":{"components":[]}}', title: null };

function page(origin: string) {
  const written: unknown[] = [];
  const editor = {
    getDocumentData: () => ({ document: { components: [] } }),
    setDocumentData: (data: unknown) => void written.push(data),
  };
  const hostname = new URL(origin).hostname;
  vi.stubGlobal('location', { origin, hostname });
  vi.stubGlobal('window', { location: { origin, hostname }, SmartEditor: { _editors: { blogpc001: editor } } });
  vi.stubGlobal('document', { querySelector: () => null });
  return written;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('smartEditorMain: only in the document of the origin the worker checked', () => {
  it('writes in a document of that origin', async () => {
    const written = page('https://blog.naver.com');
    expect(await smartEditorMain(write, 'https://blog.naver.com')).toMatchObject({ ok: true });
    expect(written).toHaveLength(1);
  });

  it('a tab that went to another site meanwhile, with its own SmartEditor object: nothing is called, nothing handed over', async () => {
    const written = page('https://evil.example');
    expect(await smartEditorMain(write, 'https://blog.naver.com')).toMatchObject({ ok: false, reason: 'host' });
    expect(written).toEqual([]);
  });
});

describe('smartEditorMain: one photo to the editor’s own uploader', () => {
  const upload: SmartEditorCall = { op: 'upload', frame: null, key: 'blogpc001', name: 'lake.png', type: 'image/png', bytes: 'iVBORw0KGgo=' };

  function uploaderPage(origin: string, answer: (files: File[]) => unknown) {
    const handed: File[] = [];
    const service = {
      createSourceList: (ids: string[], files: File[]) => files.map((source, index) => ({ id: ids[index], source })),
      uploadImagesFromFiles: async (list: Array<{ source: File }>) => {
        handed.push(...list.map((item) => item.source));
        // A promise of promises, as CSH found (two awaits).
        return list.map(async () => answer(handed));
      },
    };
    const hostname = new URL(origin).hostname;
    vi.stubGlobal('location', { origin, hostname });
    vi.stubGlobal('window', {
      location: { origin, hostname },
      File,
      SmartEditor: { _editors: { blogpc001: { _videoUploadService: { _imageUploadService: service } } } },
    });
    vi.stubGlobal('document', { querySelector: () => null });
    return handed;
  }

  it('hands the bytes over as a File of the page’s realm, and returns the upload’s result as JSON text (the page’s word)', async () => {
    const result = { code: 'SUCCESS', response: { url: '/a/lake.png', domain: 'https://blogfiles.pstatic.net' } };
    const handed = uploaderPage('https://blog.naver.com', () => result);
    expect(await smartEditorMain(upload, 'https://blog.naver.com')).toEqual({ ok: true, data: JSON.stringify(result), title: null });
    expect(handed.map((file) => [file.name, file.type, file.size])).toEqual([['lake.png', 'image/png', 8]]);
  });

  it('a refusal of the uploader is said; an answer too large is not passed on; another origin gets nothing', async () => {
    uploaderPage('https://blog.naver.com', () => Promise.reject({ code: 'FAIL', response: { code: 'CLIENT' } }));
    expect(await smartEditorMain(upload, 'https://blog.naver.com')).toMatchObject({ ok: false, reason: 'threw', message: expect.stringContaining('FAIL') });
    vi.unstubAllGlobals();
    uploaderPage('https://blog.naver.com', () => ({ response: { url: 'x'.repeat(30_000) } }));
    expect(await smartEditorMain(upload, 'https://blog.naver.com')).toMatchObject({ ok: false, reason: 'too-large' });
    vi.unstubAllGlobals();
    const handed = uploaderPage('https://evil.example', () => ({}));
    expect(await smartEditorMain(upload, 'https://blog.naver.com')).toMatchObject({ ok: false, reason: 'host' });
    expect(handed).toEqual([]);
  });
});
