/**
 * The CodeMirror main-world function against stand-in pages (a real @codemirror/state document in
 * a stand-in view): it finds the view as EditorView.findFromDOM does (6.4x's tile, older 6.x's
 * content view), only reads or sets the selection, answers only values it built, and a page whose
 * objects throw, lie about their shape or whose text changed gets nothing done.
 */
import { EditorState } from '@codemirror/state';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { codemirrorAnswerSchema, type CodemirrorCall } from '../../shared/page/codemirrorCall.ts';
import { codemirrorMain } from './codemirrorMain.ts';

function standIn(doc: string) {
  const dispatched: unknown[] = [];
  const content: Record<string, unknown> = {};
  const view: Record<string, unknown> = {
    contentDOM: content,
    state: EditorState.create({ doc }),
    dispatch(spec: { selection: { anchor: number; head: number } }) {
      dispatched.push(spec);
      view.state = (view.state as EditorState).update({ selection: spec.selection }).state;
    },
  };
  return { content, view, dispatched };
}

function page(origin: string, content: unknown) {
  vi.stubGlobal('location', { origin });
  vi.stubGlobal('document', { querySelectorAll: () => [content] });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const ORIGIN = 'https://notes.example';
const read: CodemirrorCall = { kind: 'codemirror', op: 'read', index: 0 };
const long = Array.from({ length: 2000 }, (_, index) => `Line ${index + 1}.`).join('\n');

describe('codemirrorMain', () => {
  it('reads the whole document of the view on that element (6.4x: its tile’s root), with the selection', () => {
    const { content, view } = standIn(long);
    content.cmTile = { root: { view } };
    page(ORIGIN, content);
    const answer = codemirrorMain(read, ORIGIN);
    expect(answer).toEqual({ ok: true, text: long, anchor: 0, head: 0 });
    expect(codemirrorAnswerSchema.safeParse(answer).success).toBe(true);
  });

  it('finds an older view too (6.x before tiles: its content view’s rootView)', () => {
    const { content, view } = standIn('a\nb');
    content.cmView = { rootView: { view } };
    page(ORIGIN, content);
    expect(codemirrorMain(read, ORIGIN)).toEqual({ ok: true, text: 'a\nb', anchor: 0, head: 0 });
  });

  it('selects far below, through the view’s dispatch (a selection only, scrolled into view), when the text is as long as the act module read', () => {
    const { content, view, dispatched } = standIn(long);
    content.cmTile = { root: { view } };
    page(ORIGIN, content);
    const at = long.indexOf('Line 1800.') + 'Line 1800.'.length;
    expect(codemirrorMain({ ...read, op: 'select', from: at, to: at, length: long.length }, ORIGIN)).toMatchObject({ ok: true, anchor: at, head: at });
    expect(dispatched).toEqual([{ selection: { anchor: at, head: at }, scrollIntoView: true, userEvent: 'select' }]);
    // The text changed since (another length): nothing is selected.
    expect(codemirrorMain({ ...read, op: 'select', from: 1, to: 1, length: long.length - 1 }, ORIGIN)).toMatchObject({ ok: false, reason: 'changed' });
    expect(codemirrorMain({ ...read, op: 'select', from: long.length + 5, to: long.length + 5, length: long.length }, ORIGIN)).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
    expect(dispatched).toHaveLength(1);
  });

  it('refuses another origin, an element with no view, a view of another element, and a page whose objects throw', () => {
    const { content, view } = standIn('a');
    content.cmTile = { root: { view } };
    page(ORIGIN, content);
    expect(codemirrorMain(read, 'https://other.example')).toMatchObject({ ok: false, reason: 'host' });
    page(ORIGIN, {});
    expect(codemirrorMain(read, ORIGIN)).toMatchObject({ ok: false, reason: 'missing' });
    page(ORIGIN, { cmTile: { root: { view: { ...view, contentDOM: {} } } } });
    expect(codemirrorMain(read, ORIGIN)).toMatchObject({ ok: false, reason: 'missing' });
    const liar = {
      cmTile: {
        root: {
          view: {
            get state(): never {
              throw new Error('no');
            },
          },
        },
      },
    };
    (liar.cmTile.root.view as Record<string, unknown>).contentDOM = liar;
    page(ORIGIN, liar);
    expect(codemirrorMain(read, ORIGIN)).toMatchObject({ ok: false, reason: 'threw' });
    const shaped = standIn('a');
    shaped.content.cmTile = { root: { view: shaped.view } };
    shaped.view.state = { doc: { length: 1, toString: () => 42 }, selection: { main: { anchor: 0, head: 0 } } };
    page(ORIGIN, shaped.content);
    expect(codemirrorMain(read, ORIGIN)).toMatchObject({ ok: false, reason: 'invalid' });
  });
});
