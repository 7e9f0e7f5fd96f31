// @vitest-environment happy-dom
/**
 * The one abort-with-rollback (planRollback.ts) and the words of a refusal (planProblems.ts): the
 * fields a plan wrote are put back latest first, each read back; one that cannot be is a leftover,
 * remembered as Tether's; and the refusal says which of these happened.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fieldHash } from '../../shared/page/fieldText.ts';
import type { PlanProblem, StepOutcome } from '../../shared/page/pageProtocol.ts';
import type { ActHost } from './actContract.ts';
import { bindHost } from './actHost.ts';
import { editableFrom, type Editable } from '../editables.ts';
import type { LocatedField } from '../pageModel.ts';
import { problem, problemDetails, summarize, undoneWords, withLeftOver, type Undone } from './planProblems.ts';
import { PlanLedger, refusal } from './planRollback.ts';
import { photosMissing } from './writeField.ts';
import type { PlannedWrite } from './planSteps.ts';

/** When set, a family's image removal throws (page data it did not expect), as the real one would. */
const removal = vi.hoisted(() => ({ throws: false }));
vi.mock('../editors/image.ts', async (original) => {
  const real = await original<typeof import('../editors/image.ts')>();
  return {
    ...real,
    removeImage: (...args: Parameters<typeof real.removeImage>) => {
      if (removal.throws) return Promise.reject(new TypeError('Invalid URL'));
      return real.removeImage(...args);
    },
  };
});

let remembered: Array<[Element, string]> = [];

function host(): ActHost {
  return {
    readPageModel: () => {
      throw new Error('not read here');
    },
    draftState: () => ({ inProgress: false, reasons: [] }),
    rememberTetherWrite: (element, text) => void remembered.push([element, text]),
    personIsTyping: () => null,
    lastEditBy: () => null,
    asTether: (edit) => edit(),
    watchDocument: () => undefined,
    elementId: () => 'id',
    seenElement: () => ({ element: 'id', label: '', fingerprint: 'f' }),
    actPort: () => null,
  };
}

function field(name: string, element: Element): LocatedField {
  return { name, label: name, editable: editableFrom(element) as Editable, draftIfNonEmpty: false, located: element };
}

function write(step: number, located: LocatedField, image = false): PlannedWrite {
  return {
    step,
    field: located,
    expectedBefore: { text: null, hash: '' },
    expectedAfter: '',
    planned: null,
    ...(image ? { image: { image: { blob: new Blob(), name: 'i', type: 'image/png', width: 1, height: 1 }, alt: '' } } : {}),
  };
}

function ran(step: number, target: string): StepOutcome {
  return { step, op: 'fill', target, verified: true };
}

let title: HTMLInputElement;
let slug: HTMLInputElement;
let fields: { title: LocatedField; slug: LocatedField };
beforeEach(() => {
  if (typeof document.execCommand !== 'function') Object.assign(document, { execCommand: () => false });
  document.body.innerHTML = '<input id="title" value="Old title"><input id="slug" value="old-slug">';
  title = document.querySelector('#title') as HTMLInputElement;
  slug = document.querySelector('#slug') as HTMLInputElement;
  fields = { title: field('title', title), slug: field('slug', slug) };
  remembered = [];
  removal.throws = false;
  bindHost(host());
});

describe('PlanLedger.rollback: every field the plan wrote, latest first, each read back', () => {
  it('puts back each field from its first snapshot, latest step first', async () => {
    const writes = new Map([
      [0, write(0, fields.title)],
      [1, write(1, fields.slug)],
      [2, write(2, fields.title)],
    ]);
    const ledger = new PlanLedger(writes);
    await ledger.before(writes.get(0) as PlannedWrite);
    title.value = 'New';
    ledger.ran.push(ran(0, 'title'));
    await ledger.before(writes.get(1) as PlannedWrite);
    slug.value = 'new';
    ledger.ran.push(ran(1, 'slug'));
    // A second write to the same field keeps the first snapshot: the field goes back to before the plan.
    await ledger.before(writes.get(2) as PlannedWrite);
    title.value = 'New!';
    ledger.ran.push(ran(2, 'title'));
    const undone = await ledger.rollback();
    expect(undone).toEqual({ restored: [2, 1], leftOver: [] });
    expect([title.value, slug.value]).toEqual(['Old title', 'old-slug']);
  });

  it('a field that already reads as it was needs nothing, and counts as put back', async () => {
    const writes = new Map([[0, write(0, fields.title)]]);
    const ledger = new PlanLedger(writes);
    await ledger.before(writes.get(0) as PlannedWrite);
    ledger.ran.push(ran(0, 'title'));
    let wrote = 0;
    title.addEventListener('input', () => (wrote += 1));
    expect(await ledger.rollback()).toEqual({ restored: [0], leftOver: [] });
    expect(wrote).toBe(0);
  });

  it('a field that will not go back is a leftover: said, with its length and hash, and remembered as Tether’s', async () => {
    const writes = new Map([
      [0, write(0, fields.title)],
      [1, write(1, fields.slug)],
    ]);
    const ledger = new PlanLedger(writes);
    await ledger.before(writes.get(0) as PlannedWrite);
    await ledger.before(writes.get(1) as PlannedWrite);
    title.value = 'New';
    slug.value = 'stuck';
    ledger.ran.push(ran(0, 'title'), ran(1, 'slug'));
    // The page puts its own text back whenever the slug is written.
    slug.addEventListener('input', () => (slug.value = 'stuck'));
    const undone = await ledger.rollback();
    expect(undone).toEqual({ restored: [0], leftOver: [{ step: 1, field: 'slug', length: 5, hash: fieldHash('stuck') }] });
    expect(remembered).toEqual([[slug, 'stuck']]);
  });

  it('steps with no write (clicks) are skipped; an image step with nothing placed is put back', async () => {
    const writes = new Map([[1, write(1, fields.title, true)]]);
    const ledger = new PlanLedger(writes);
    await ledger.before(writes.get(1) as PlannedWrite);
    expect(ledger.imagesOf(1)).toEqual([]);
    ledger.ran.push({ step: 0, op: 'click', target: 'save', verified: true }, ran(1, 'title'));
    expect(await ledger.rollback()).toEqual({ restored: [1], leftOver: [] });
  });

  it('an image step whose field’s text is not what it was before the plan is a leftover saying why (the editor’s undo took text with the image), never rewritten', async () => {
    const writes = new Map([[1, write(1, fields.title, true)]]);
    const ledger = new PlanLedger(writes);
    await ledger.before(writes.get(1) as PlannedWrite);
    ledger.imagesOf(1);
    ledger.ran.push(ran(1, 'title'));
    title.value = 'Changed by the page';
    // An image step keeps no snapshot of the text: the field is not rewritten, and not called put back either.
    expect(await ledger.rollback()).toEqual({
      restored: [],
      leftOver: [
        {
          step: 1,
          field: 'title',
          length: 'Changed by the page'.length,
          hash: fieldHash('Changed by the page'),
          why: 'the editor’s undo took the image out, but the field’s text is not what it was before the plan',
        },
      ],
    });
    expect(title.value).toBe('Changed by the page');
  });

  it('an image step whose field reads as before but for the caret’s zero-width filler the editor renders (CKEditor 5’s inline filler) is put back', async () => {
    const writes = new Map([[1, write(1, fields.title, true)]]);
    const ledger = new PlanLedger(writes);
    const before = title.value;
    await ledger.before(writes.get(1) as PlannedWrite);
    ledger.imagesOf(1);
    ledger.ran.push(ran(1, 'title'));
    title.value = `${before}${'\u2060'.repeat(7)}`;
    expect(await ledger.rollback()).toEqual({ restored: [1], leftOver: [] });
    // Any other character is text, and still a leftover.
    const again = new PlanLedger(writes);
    title.value = before;
    await again.before(writes.get(1) as PlannedWrite);
    again.imagesOf(1);
    again.ran.push(ran(1, 'title'));
    title.value = `${before}x`;
    expect((await again.rollback()).leftOver).toHaveLength(1);
  });

  it('a photo chosen in the site’s file chooser: the chooser emptied; what the site stored is a leftover named by its address, else put back', async () => {
    document.body.insertAdjacentHTML('beforeend', '<input id="photo" type="file">');
    const photo = field('photo', document.querySelector('#photo') as Element);
    const chosen = (step: number): PlannedWrite => ({
      ...write(step, photo),
      file: { image: { blob: new Blob(), name: 'cat.png', type: 'image/png', width: 1, height: 1 }, alt: '' },
    });
    const writes = new Map([
      [0, chosen(0)],
      [1, chosen(1)],
    ]);
    const ledger = new PlanLedger(writes);
    await ledger.before(writes.get(0) as PlannedWrite);
    ledger.imagesOf(0).push('https://blog.example/stored/cat.png');
    ledger.imagesOf(1);
    ledger.ran.push({ ...ran(0, 'photo'), op: 'image' }, { ...ran(1, 'photo'), op: 'image' });
    expect(await ledger.rollback()).toEqual({
      restored: [1],
      leftOver: [{ step: 0, field: 'photo', length: 0, hash: fieldHash(''), uploaded: 'https://blog.example/stored/cat.png' }],
    });
    // Nothing of the chooser is taken for the person's draft: it keeps no text.
    expect(remembered).toEqual([]);
  });

  it('an image removal that throws is that image not taken out (a leftover), and the rollback goes on to the other fields', async () => {
    const writes = new Map([
      [1, write(1, fields.title)],
      [2, write(2, fields.slug, true)],
    ]);
    const ledger = new PlanLedger(writes);
    await ledger.before(writes.get(1) as PlannedWrite);
    title.value = 'New title';
    await ledger.before(writes.get(2) as PlannedWrite);
    ledger.imagesOf(2).push('http://blog.localhost/uploads/0.png');
    ledger.ran.push(ran(1, 'title'), ran(2, 'slug'));
    removal.throws = true;
    const undone = await ledger.rollback();
    expect(undone.restored).toEqual([1]);
    expect(undone.leftOver.map((left) => left.step)).toEqual([2]);
    expect(title.value).toBe('Old title');
  });

  it('a text step written only once is not put back twice', async () => {
    const writes = new Map([[0, write(0, fields.title)]]);
    const ledger = new PlanLedger(writes);
    await ledger.before(writes.get(0) as PlannedWrite);
    title.value = 'New';
    ledger.ran.push(ran(0, 'title'), ran(0, 'title'));
    expect(await ledger.rollback()).toEqual({ restored: [0], leftOver: [] });
  });
});

describe('PlanLedger.abort: rolls back and refuses, saying so', () => {
  const found = problem(1, 'field_changed', 'x', { cause: 'page' });

  it('after writes that were put back', async () => {
    const writes = new Map([[0, write(0, fields.title)]]);
    const ledger = new PlanLedger(writes);
    await ledger.before(writes.get(0) as PlannedWrite);
    title.value = 'New';
    ledger.ran.push(ran(0, 'title'));
    const result = await ledger.abort({
      code: 'field_changed',
      problems: [found],
      details: { field: 'slug' },
      message: ({ all, before }) => `Step 2: all ${all}; before ${before}.`,
    });
    expect(result).toEqual({
      ok: false,
      error: expect.objectContaining({
        code: 'field_changed',
        message: 'Step 2: all earlier steps were undone; before nothing had run.',
        details: { field: 'slug' },
      }),
      problems: [found],
      ran: [ran(0, 'title')],
      rolledBack: [0],
    });
    expect(title.value).toBe('Old title');
  });

  it('before anything ran', async () => {
    const result = await new PlanLedger(new Map()).abort({ code: 'target_busy', problems: [], details: {}, message: ({ all }) => all });
    expect(result).toMatchObject({ ok: false, error: { code: 'target_busy', message: 'nothing had run', details: {} }, ran: [], rolledBack: [] });
  });

  it('with a leftover: the details carry it', async () => {
    const writes = new Map([[0, write(0, fields.slug)]]);
    const ledger = new PlanLedger(writes);
    await ledger.before(writes.get(0) as PlannedWrite);
    slug.value = 'stuck';
    slug.addEventListener('input', () => (slug.value = 'stuck'));
    ledger.ran.push(ran(0, 'slug'));
    const result = await ledger.abort({ code: 'invalid_request', problems: [], details: { a: 1 }, message: ({ all }) => all });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toBe('Tether could not undo its writes to "slug": the page still differs from before (details.leftOver)');
    expect(result.error.details).toEqual({ a: 1, leftOver: [{ step: 0, field: 'slug', length: 5, hash: fieldHash('stuck') }] });
    expect(result.rolledBack).toEqual([]);
  });
});

describe('planProblems: the words of a refusal', () => {
  const none: Undone = { restored: [], leftOver: [] };
  const left: Undone = {
    restored: [],
    leftOver: [
      { step: 0, field: 'title', length: 1, hash: 'h' },
      { step: 2, field: 'title', length: 1, hash: 'h' },
      { step: 1, field: 'slug', length: 1, hash: 'h' },
    ],
  };
  it.each([
    { undone: none, ran: [], words: 'nothing had run' },
    { undone: left, ran: [], words: 'nothing had run' },
    { undone: none, ran: [ran(0, 'title')], words: 'earlier steps were undone' },
    {
      undone: left,
      ran: [ran(0, 'title')],
      words: 'Tether could not undo its writes to "title", "slug": the page still differs from before (details.leftOver)',
    },
  ])('undoneWords: $words', ({ undone, ran: steps, words }) => {
    expect(undoneWords(undone, steps)).toBe(words);
  });

  it('withLeftOver adds the leftovers only when there are some', () => {
    expect(withLeftOver({ a: 1 }, none)).toEqual({ a: 1 });
    expect(withLeftOver({ a: 1 }, left)).toEqual({ a: 1, leftOver: left.leftOver });
  });

  const one = problem(0, 'field_changed', 'changed.', { changed: ['element'] });
  const byPage = problem(2, 'field_changed', 'by the page.', { cause: 'page', editor: 'tinymce' });
  const other = problem(1, 'invalid_request', 'bad.');
  it.each<{ problems: PlanProblem[]; code: string; message: string }>([
    { problems: [one], code: 'field_changed', message: 'Step 1: changed. Nothing ran.' },
    { problems: [one, byPage], code: 'field_changed', message: '2 problems in the plan; nothing ran. Fix them all and send the plan again.' },
    { problems: [one, other], code: 'invalid_request', message: '2 problems in the plan; nothing ran. Fix them all and send the plan again.' },
  ])('summarize: $code, $message', ({ problems, code, message }) => {
    expect(summarize(problems)).toMatchObject({ code, message, details: problemDetails(problems) });
  });

  it('problemDetails: the problems, the first editor named, what changed, and the steps the page changed', () => {
    expect(problemDetails([other])).toEqual({ problems: [other] });
    expect(problemDetails([one, other, byPage, { ...one, step: 3 }])).toEqual({
      problems: [one, other, byPage, { ...one, step: 3 }],
      editor: 'tinymce',
      changed: ['element'],
      changedByPage: { steps: [2], note: 'The page’s own script changes these fields; it blocks writes to itself.' },
    });
  });

  it('refusal: an error and, by default, nothing ran', () => {
    const error = summarize([other]);
    expect(refusal(error)).toEqual({ ok: false, error, problems: [], ran: [], rolledBack: [] });
  });
});

describe('photosMissing: the photos a field held before a plan that a restore did not bring back', () => {
  it.each([
    { name: 'none before → none missing', before: [], now: ['a.png'], missing: 0 },
    { name: 'all back, in another order', before: ['a.png', 'b.png'], now: ['b.png', 'a.png'], missing: 0 },
    { name: 'one of two gone', before: ['a.png', 'b.png'], now: ['a.png'], missing: 1 },
    { name: 'the same photo twice, back once → one missing', before: ['a.png', 'a.png'], now: ['a.png'], missing: 1 },
    { name: 'every photo gone (a block editor’s restore of allowlisted markup)', before: ['a.png', 'b.png'], now: [], missing: 2 },
  ])('$name', ({ before, now, missing }) => {
    expect(photosMissing(before, now)).toBe(missing);
  });
});
