/**
 * The Trix main-world function against stand-in pages: it calls only the attachment methods of
 * the editor named, answers only values it built (cut to their limits), and a page whose objects
 * throw, lie about their shape or moved elsewhere gets nothing done.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { trixAnswerSchema, type TrixCall } from '../../shared/page/trixCall.ts';
import { trixMain } from './trixMain.ts';

function attachment(attributes: Record<string, unknown>, pending = false) {
  const calls: unknown[] = [];
  return {
    calls,
    getAttribute: (name: string) => attributes[name],
    isPending: () => pending,
    setAttributes: (next: Record<string, unknown>) => {
      calls.push(next);
      Object.assign(attributes, next);
    },
  };
}

function page(origin: string, editor: unknown) {
  vi.stubGlobal('location', { origin });
  vi.stubGlobal('document', { querySelectorAll: () => [{ editor }] });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const read: TrixCall = { kind: 'trix', op: 'read', index: 0 };

describe('trixMain', () => {
  it('reads the attachments of the editor named, each as plain values of their limits', () => {
    const stored = attachment({ url: 'https://notes.example/uploads/0.png', caption: 'x'.repeat(9000), contentType: 'image/png' });
    const waiting = attachment({ filename: 'lake.png' }, true);
    page('https://notes.example', { getDocument: () => ({ getAttachments: () => [stored, waiting], toString: () => 'Hello\uFFFC\n' }) });
    const answer = trixMain(read, 'https://notes.example');
    expect(trixAnswerSchema.safeParse(answer).success).toBe(true);
    expect(answer).toMatchObject({ ok: true, text: 'Hello\uFFFC\n' });
    if (!answer.ok) return;
    expect(answer.attachments.map((item) => [item.url, item.pending, item.caption.length])).toEqual([
      ['https://notes.example/uploads/0.png', false, 4000],
      ['', true, 0],
    ]);
  });

  it('describes only the attachment at the address asked for', () => {
    const mine = attachment({ url: 'https://notes.example/uploads/1.png' });
    const theirs = attachment({ url: 'https://notes.example/uploads/0.png' });
    page('https://notes.example', { getDocument: () => ({ getAttachments: () => [theirs, mine] }) });
    expect(
      trixMain({ kind: 'trix', op: 'describe', index: 0, url: 'https://notes.example/uploads/1.png', caption: 'The lake' }, 'https://notes.example'),
    ).toMatchObject({
      ok: true,
    });
    expect(mine.calls).toEqual([{ caption: 'The lake', alt: 'The lake' }]);
    expect(theirs.calls).toEqual([]);
    expect(trixMain({ kind: 'trix', op: 'describe', index: 0, url: 'https://elsewhere.example/x.png', caption: 'x' }, 'https://notes.example')).toMatchObject({
      ok: false,
      reason: 'none',
    });
  });

  it.each([
    ['no editor on the element', undefined, 'missing'],
    ['an editor object of another shape', { getDocument: 'not a function' }, 'missing'],
    [
      'a getDocument that throws',
      {
        getDocument: () => {
          throw new Error('boom');
        },
      },
      'threw',
    ],
  ])('%s: refused as a value', (_, editor, reason) => {
    page('https://notes.example', editor);
    expect(trixMain(read, 'https://notes.example')).toMatchObject({ ok: false, reason });
  });

  it('a page whose attachments answer objects or getters that throw gets strings back only, or a refusal', () => {
    const hostile = {
      getAttribute: () => ({
        toString: () => {
          throw new Error('no');
        },
      }),
      isPending: () => 'yes',
    };
    page('https://notes.example', { getDocument: () => ({ getAttachments: () => [hostile] }) });
    const answer = trixMain(read, 'https://notes.example');
    expect(trixAnswerSchema.safeParse(answer).success).toBe(true);
    expect(answer).toMatchObject({ ok: true, attachments: [{ url: '', caption: '', pending: false }] });
  });

  it('a tab that went to another site meanwhile: nothing is called', () => {
    const mine = attachment({ url: 'https://notes.example/uploads/1.png' });
    page('https://evil.example', { getDocument: () => ({ getAttachments: () => [mine] }) });
    expect(
      trixMain({ kind: 'trix', op: 'describe', index: 0, url: 'https://notes.example/uploads/1.png', caption: 'x' }, 'https://notes.example'),
    ).toMatchObject({
      ok: false,
      reason: 'host',
    });
    expect(mine.calls).toEqual([]);
  });
});
