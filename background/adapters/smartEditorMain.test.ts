/**
 * The main-world function, run against a stand-in page: where the tab's top document cannot be
 * pinned by its documentId (Firefox 140 ESR: the worker's commit key, so the injection goes to
 * frame 0, whatever document it holds by then), a tab that navigated between the worker's host
 * check and the injection must not get the call. The function checks the document's own origin
 * (`location`, which a page cannot redefine) before it looks for an editor object at all.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SmartEditorCall } from '../../shared/smartEditorCall.ts';
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
