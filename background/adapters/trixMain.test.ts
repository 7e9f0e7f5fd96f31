/**
 * The Trix main-world function against stand-in pages: it calls only the attachment methods of
 * the editor named, answers only values it built (cut to their limits), and a page whose objects
 * throw, lie about their shape or moved elsewhere gets nothing done.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { trixAnswerSchema, trixCallSchema, type TrixCall } from '../../shared/page/trixCall.ts';
import { trixMain } from './trixMain.ts';

let nextId = 1;
function attachment(attributes: Record<string, unknown>, pending = false) {
  const calls: unknown[] = [];
  return {
    id: nextId++,
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
      trixMain(
        { kind: 'trix', op: 'describe', index: 0, id: mine.id, url: 'https://notes.example/uploads/1.png', caption: 'The lake' },
        'https://notes.example',
      ),
    ).toMatchObject({
      ok: true,
    });
    expect(mine.calls).toEqual([{ caption: 'The lake', alt: 'The lake' }]);
    expect(theirs.calls).toEqual([]);
    expect(
      trixMain({ kind: 'trix', op: 'describe', index: 0, id: mine.id, url: 'https://elsewhere.example/x.png', caption: 'x' }, 'https://notes.example'),
    ).toMatchObject({
      ok: false,
      reason: 'none',
    });
    // The right address under another attachment's id is not that attachment.
    expect(
      trixMain({ kind: 'trix', op: 'describe', index: 0, id: theirs.id, url: 'https://notes.example/uploads/1.png', caption: 'x' }, 'https://notes.example'),
    ).toMatchObject({ ok: false, reason: 'none' });
    expect(theirs.calls).toEqual([]);
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
      trixMain({ kind: 'trix', op: 'describe', index: 0, id: mine.id, url: 'https://notes.example/uploads/1.png', caption: 'x' }, 'https://notes.example'),
    ).toMatchObject({
      ok: false,
      reason: 'host',
    });
    expect(mine.calls).toEqual([]);
  });

  // Attacker review 2026-12-01: a content attachment (an ActionText mention: no url, no file) and
  // Tether's pending photo both have the address ''; a remove by address took the person's mention.
  it('remove takes out the attachment with the id asked for, never another one with the same empty address', () => {
    const deleted: number[] = [];
    let selected: unknown = null;
    const mention = { id: 7, getAttribute: (name: string) => (name === 'content' ? '<span>@kim</span>' : undefined), isPending: () => false };
    const ours = { id: 8, getAttribute: () => undefined, isPending: () => true };
    const held = [mention, ours];
    const doc = {
      getAttachments: () => held.slice(),
      getRangeOfAttachment: (item: { id: number }) => (item.id === mention.id ? [3, 4] : [9, 10]),
      toString: () => 'hi \ufffc x \ufffc',
    };
    const editor = {
      getDocument: () => doc,
      setSelectedRange: (range: unknown) => {
        selected = range;
      },
      deleteInDirection: () => {
        const at = Array.isArray(selected) && selected[0] === 3 ? 0 : 1;
        const [gone] = held.splice(at, 1);
        if (gone) deleted.push(gone.id);
      },
    };
    page('https://notes.example', editor);
    const answer = trixMain({ kind: 'trix', op: 'remove', index: 0, id: ours.id, url: '' }, 'https://notes.example');
    expect(answer).toMatchObject({ ok: true, attachments: [{ id: mention.id, url: '' }] });
    expect(deleted).toEqual([ours.id]);
    // A remove by address alone (no id) is no call at all.
    expect(trixCallSchema.safeParse({ kind: 'trix', op: 'remove', index: 0, url: '' }).success).toBe(false);
    expect(trixCallSchema.safeParse({ kind: 'trix', op: 'describe', index: 0, id: 8, url: '' }).success).toBe(false);
  });

  it('an editor at that index whose input is not the one Tether saw: nothing is done', () => {
    const mine = attachment({ url: 'https://notes.example/uploads/1.png' });
    vi.stubGlobal('location', { origin: 'https://notes.example' });
    const element = {
      editor: { getDocument: () => ({ getAttachments: () => [mine] }) },
      getAttribute: (name: string) => (name === 'input' ? 'other_body' : null),
    };
    vi.stubGlobal('document', { querySelectorAll: () => [element] });
    const call: TrixCall = {
      kind: 'trix',
      op: 'describe',
      index: 0,
      input: 'post_body',
      id: mine.id,
      url: 'https://notes.example/uploads/1.png',
      caption: 'x',
    };
    expect(trixMain(call, 'https://notes.example')).toMatchObject({ ok: false, reason: 'missing' });
    expect(mine.calls).toEqual([]);
    expect(trixMain({ ...call, input: 'other_body' }, 'https://notes.example')).toMatchObject({ ok: true });
  });
});
