import { describe, expect, it } from 'vitest';
import { unreachable, type Reach } from './reachable.ts';

/** A text box a person sees: 200 × 30 px at (10, 10), shown, in the tab order. */
const seen: Reach = { shown: true, ariaHidden: false, inert: false, box: { left: 10, top: 10, width: 200, height: 30 }, tabIndex: null, labelled: false };
const box = (left: number, top: number, width: number, height: number) => ({ box: { left, top, width, height } });

describe('reachable inputs: which ones a person can see and reach (only those are fields)', () => {
  it.each<[string, Partial<Reach>, string | null]>([
    ['a plain text box', {}, null],
    ['display:none, or opacity:0 on it or an ancestor (the browser says: not shown)', { shown: false }, 'not shown'],
    ['aria-hidden on it or an ancestor', { ariaHidden: true }, 'aria-hidden'],
    ['inert on it or an ancestor', { inert: true }, 'inert'],
    ['zero size', box(10, 10, 0, 0), 'zero size'],
    ['a 1 × 1 px "visually hidden" box', box(10, 10, 1, 1), 'zero size'],
    ['zero wide but 20 px high: still there', box(10, 10, 0, 20), null],
    ['a focus trap at −10000 px', box(-10000, 10, 200, 30), 'off-screen'],
    ['above the document', box(10, -500, 200, 30), 'off-screen'],
    ['partly off the left edge: reachable', box(-100, 10, 200, 30), null],
    ['far down the page (scrolling brings it)', box(10, 9000, 200, 30), null],
    ['tabindex=-1 and no label', { tabIndex: -1 }, 'out of tab order, no label'],
    ['tabindex=-1 with a label', { tabIndex: -1, labelled: true }, null],
    ['tabindex=0 and no label', { tabIndex: 0 }, null],
    ['an unparsable tabindex', { tabIndex: Number.NaN }, null],
    ['an editor’s focus trap: aria-hidden, tabindex=-1, at −10000 px', { ariaHidden: true, tabIndex: -1, ...box(-10000, 0, 1, 1) }, 'aria-hidden'],
  ])('%s → %s', (_, change, reason) => {
    expect(unreachable({ ...seen, ...change })).toBe(reason);
  });
});
