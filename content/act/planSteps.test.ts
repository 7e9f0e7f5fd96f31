// @vitest-environment happy-dom
/**
 * The per-step validators (planSteps.ts), table by table: for each step kind, the page as it is
 * and what the plan says, and the problems (or the write, or the click) the validator answers.
 * Plain fields and an image-capable family by name: the editor families themselves are driven in
 * real browsers by the e2e suites.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ClickPin } from '../../shared/page/elementBinding.ts';
import { fieldHash } from '../../shared/page/fieldText.ts';
import type { PlanProblem } from '../../shared/page/pageProtocol.ts';
import type { Plan, PlanStep } from '../../shared/agent/agentProtocol.ts';
import type { ActHost } from './actContract.ts';
import { bindHost } from './actHost.ts';
import { editableFrom, readEditable, type Editable } from '../editables.ts';
import type { EditorFamily } from '../editorFamily.ts';
import { stageImage } from './imageStage.ts';
import type { LocatedAction, LocatedField, PageModel } from '../pageModel.ts';
import { checkClick, checkField, checkStep, validateSteps, type PlanContext, type StepScene } from './planSteps.ts';

const ids = new WeakMap<Element, string>();
let nextId = 1;
function idOf(element: Element): string {
  let id = ids.get(element);
  if (!id) {
    id = `el${nextId++}`;
    ids.set(element, id);
  }
  return id;
}

let typingIn: { element: Element; how: 'typing' | 'composing' } | null = null;
let editedBy: 'page' | 'person' | null = 'page';

function host(model: () => PageModel): ActHost {
  return {
    readPageModel: model,
    draftState: () => ({ inProgress: false, reasons: [] }),
    rememberTetherWrite: () => undefined,
    personIsTyping: (element) => (typingIn?.element === element ? typingIn.how : null),
    lastEditBy: () => editedBy,
    asTether: (edit) => edit(),
    watchDocument: () => undefined,
    elementId: idOf,
    seenElement: (element) => ({ element: idOf(element), label: element.textContent ?? '', fingerprint: element.getAttribute('data-f') ?? 'f' }),
    actPort: () => null,
  };
}

function field(name: string, element: Element, family?: EditorFamily): LocatedField {
  const editable = editableFrom(element) as Editable;
  return { name, label: name, editable: family ? { ...editable, family } : editable, draftIfNonEmpty: false, located: element };
}

function action(name: string, element: HTMLElement, kind: LocatedAction['kind'] = 'other'): LocatedAction {
  return { name, kind, element } as LocatedAction;
}

interface Scene {
  model: PageModel;
  context: PlanContext;
  title: HTMLInputElement;
  body: HTMLElement;
  save: HTMLButtonElement;
}

function scene(): Scene {
  if (typeof document.execCommand !== 'function') Object.assign(document, { execCommand: () => false });
  document.body.innerHTML = `
    <input id="title" type="text" value="Old title">
    <select id="category"><option value="">-</option><option value="news">news</option></select>
    <input id="locked" type="text" disabled>
    <div id="body" contenteditable="true"><p>First block</p><p>Second block</p></div>
    <button id="save">Save</button><button id="publish">Publish</button><button id="off" disabled>Off</button>`;
  const $ = <T extends Element>(selector: string) => document.querySelector(selector) as T;
  const title = $<HTMLInputElement>('#title');
  const body = $<HTMLElement>('#body');
  const save = $<HTMLButtonElement>('#save');
  const fields = [
    field('title', title),
    field('category', $('#category')),
    field('locked', $('#locked')),
    field('body', body, 'ckeditor5'),
    field('plain', body),
  ];
  const model: PageModel = {
    adapterId: 'test',
    fields,
    actions: [action('save', save), action('publish', $('#publish'), 'publish'), action('off', $('#off'))],
    readable: new Map(),
    signIn: { state: 'unknown', account: null, via: 'none' },
    draftBanner: false,
  };
  const context: PlanContext = {
    inspected: Object.fromEntries(fields.map((item) => [item.name, fieldHash(readText(item))])),
    elements: Object.fromEntries(fields.map((item) => [item.name, idOf(item.editable.element)])),
    pins: [],
  };
  bindHost(host(() => model));
  return { model, context, title, body, save };
}

function readText(item: LocatedField): string {
  return readEditable(item.editable);
}

function at(page: Scene, index = 0, extra: Partial<StepScene> = {}): StepScene {
  return { index, steps: 1, model: page.model, context: page.context, pinned: false, predicted: new Map(), imagesInto: new Map(), ...extra };
}

/** The problems' codes and messages (the words are what the agent reads). */
function said(problems: PlanProblem[]): Array<[string, string]> {
  return problems.map((item) => [item.code, item.message]);
}

let page: Scene;
beforeEach(() => {
  typingIn = null;
  editedBy = 'page';
  page = scene();
});

describe('checkClick: the action is there, enabled, publishing only last, and (for a run) the approved element', () => {
  const cases: Array<{ name: string; step: PlanStep & { op: 'click' }; scene?: Partial<StepScene>; pins?: ClickPin[]; problems: Array<[string, string]> }> = [
    { name: 'an enabled action', step: { op: 'click', action: 'save' }, problems: [] },
    {
      name: 'no such action: the ones there are named',
      step: { op: 'click', action: 'send' },
      problems: [['invalid_request', 'No action "send" on this page. Actions here: save, publish, off.']],
    },
    { name: 'a disabled button', step: { op: 'click', action: 'off' }, problems: [['invalid_request', 'The "off" button is disabled now.']] },
    {
      name: 'a publishing click before the last step',
      step: { op: 'click', action: 'publish' },
      scene: { index: 0, steps: 2 },
      problems: [['invalid_request', '"publish" publishes and cannot be undone, so it must be the last step.']],
    },
    { name: 'a publishing click as the last step', step: { op: 'click', action: 'publish' }, scene: { index: 1, steps: 2 }, problems: [] },
    {
      name: 'a run with no pin for the click',
      step: { op: 'click', action: 'save' },
      scene: { pinned: true },
      problems: [['context_changed', 'The “save” button is not the one validated and approved: Tether has no record of which button was validated for it.']],
    },
    {
      name: 'a run whose pin is another element',
      step: { op: 'click', action: 'save' },
      scene: { pinned: true },
      pins: [{ step: 0, element: 'elsewhere', label: 'Save', fingerprint: 'f' }],
      problems: [['context_changed', 'The “save” button is not the one validated and approved: another element on the page now has its name.']],
    },
    {
      name: 'a run whose button was relabelled',
      step: { op: 'click', action: 'save' },
      scene: { pinned: true },
      pins: [{ step: 0, element: 'SAVE', label: 'Keep', fingerprint: 'f' }],
      problems: [['context_changed', 'The “save” button is not the one validated and approved: it was changed (label “Keep” → “Save”).']],
    },
    {
      name: 'a dry run does not look at pins',
      step: { op: 'click', action: 'save' },
      pins: [{ step: 0, element: 'elsewhere', label: 'Keep', fingerprint: 'g' }],
      problems: [],
    },
  ];
  it.each(cases)('$name', ({ step, scene: extra, pins, problems }) => {
    const saveId = idOf(page.save);
    const context = { ...page.context, pins: (pins ?? []).map((pin) => (pin.element === 'SAVE' ? { ...pin, element: saveId } : pin)) };
    const found = checkClick(step, at(page, extra?.index ?? 0, { ...extra, context }));
    expect(said(found.problems)).toEqual(problems);
    if (problems.length > 0 && problems[0]?.[1].startsWith('No action')) expect(found.click).toBeUndefined();
    else expect(found.click).toMatchObject({ step: extra?.index ?? 0, action: step.action, seen: { element: idOf(found.click?.located.element as Element) } });
  });

  it('a run whose pin matches the button passes, and a moved button says what changed', () => {
    const pin = { step: 0, element: idOf(page.save), label: 'Save', fingerprint: 'f' };
    expect(checkClick({ op: 'click', action: 'save' }, at(page, 0, { pinned: true, context: { ...page.context, pins: [pin] } })).problems).toEqual([]);
    const moved = checkClick({ op: 'click', action: 'save' }, at(page, 0, { pinned: true, context: { ...page.context, pins: [{ ...pin, element: 'x' }] } }));
    expect(moved.problems).toEqual([expect.objectContaining({ step: 0, changed: ['element'] })]);
  });
});

describe('checkField: what every field step checks first', () => {
  const cases: Array<{ name: string; step: PlanStep; setup?: () => void; scene?: (page: Scene) => Partial<StepScene>; problems: Array<[string, string]> }> = [
    {
      name: 'no such field: the ones there are named',
      step: { op: 'fill', field: 'summary', text: 'x' },
      problems: [['invalid_request', 'No field "summary" on this page. Fields here: title, category, locked, body, plain.']],
    },
    {
      name: 'a choice written as text',
      step: { op: 'fill', field: 'category', text: 'x' },
      problems: [['invalid_request', '"category" is a choice: use select.']],
    },
    {
      name: 'text chosen as a choice',
      step: { op: 'select', field: 'title', value: 'x' },
      problems: [['invalid_request', '"title" is text: use fill, append or clear.']],
    },
    {
      name: 'a disabled field',
      step: { op: 'fill', field: 'locked', text: 'x' },
      problems: [['invalid_request', '"locked" is disabled or read-only on the page.']],
    },
    {
      name: 'the person is typing in it (and checking goes on)',
      step: { op: 'fill', field: 'title', text: 'x' },
      setup: () => (typingIn = { element: document.querySelector('#title') as Element, how: 'typing' }),
      problems: [['target_busy', 'The person is typing in "title".']],
    },
    {
      name: 'the person is composing in it',
      step: { op: 'fill', field: 'title', text: 'x' },
      setup: () => (typingIn = { element: document.querySelector('#title') as Element, how: 'composing' }),
      problems: [['target_busy', 'The person is composing text (IME) in "title".']],
    },
    {
      name: 'nothing says what it holds',
      step: { op: 'fill', field: 'title', text: 'x' },
      scene: (page) => ({ context: { ...page.context, inspected: {} } }),
      problems: [['invalid_request', 'Say what "title" holds now: inspect this handle first, or give expect.hash or expect.text.']],
    },
    {
      name: 'typing and no expectation: both listed',
      step: { op: 'fill', field: 'title', text: 'x' },
      setup: () => (typingIn = { element: document.querySelector('#title') as Element, how: 'typing' }),
      scene: (page) => ({ context: { ...page.context, inspected: {} } }),
      problems: [
        ['target_busy', 'The person is typing in "title".'],
        ['invalid_request', 'Say what "title" holds now: inspect this handle first, or give expect.hash or expect.text.'],
      ],
    },
    {
      name: 'a field this handle never saw',
      step: { op: 'fill', field: 'title', text: 'x' },
      scene: (page) => ({ context: { ...page.context, elements: {} } }),
      problems: [['field_changed', 'Tether has not seen "title" through this handle. Inspect again and rebuild the plan.']],
    },
    {
      name: 'a name that now means another element',
      step: { op: 'fill', field: 'title', text: 'x' },
      scene: (page) => ({ context: { ...page.context, elements: { ...page.context.elements, title: 'el-other' } } }),
      problems: [['field_changed', '"title" now means another element on the page than when this handle inspected it. Inspect again and rebuild the plan.']],
    },
    {
      name: 'changed by the page since the inspect',
      step: { op: 'fill', field: 'title', text: 'x' },
      setup: () => ((document.querySelector('#title') as HTMLInputElement).value = 'Changed'),
      problems: [
        [
          'field_changed',
          '"title" changed since it was inspected — by the page\'s own script, not by the person (no keys, IME, paste or drop). A page that keeps rewriting a field blocks writes to it.',
        ],
      ],
    },
    {
      name: 'changed by the person since the inspect',
      step: { op: 'fill', field: 'title', text: 'x' },
      setup: () => {
        (document.querySelector('#title') as HTMLInputElement).value = 'Changed';
        editedBy = 'person';
      },
      problems: [['field_changed', '"title" changed since it was inspected (someone edited it). Inspect again and rebuild the plan.']],
    },
    {
      name: 'a step’s own expect.text wins over the inspect',
      step: { op: 'fill', field: 'title', text: 'x', expect: { text: 'Something else' } },
      setup: () => (editedBy = null),
      problems: [['field_changed', '"title" changed since it was inspected (someone edited it). Inspect again and rebuild the plan.']],
    },
    {
      name: 'a field an earlier step writes is not compared with the page (its text is predicted)',
      step: { op: 'append', field: 'title', text: '!' },
      setup: () => ((document.querySelector('#title') as HTMLInputElement).value = 'Changed'),
      scene: () => ({ predicted: new Map([['title', 'New']]) }),
      problems: [],
    },
  ];
  it.each(cases)('$name', ({ step, setup, scene: extra, problems }) => {
    setup?.();
    const found = checkField(step as Exclude<PlanStep, { op: 'click' }>, at(page, 0, extra?.(page)));
    expect(said(found.problems)).toEqual(problems);
    const stops = problems.some(([code, message]) => code !== 'target_busy' && !message.includes('changed since'));
    expect(found.write === undefined).toBe(stops);
  });

  it('the changed problems say who changed the field and what changed', () => {
    const moved = checkField({ op: 'fill', field: 'title', text: 'x' }, at(page, 3, { context: { ...page.context, elements: {} } }));
    expect(moved.problems).toEqual([expect.objectContaining({ step: 3, changed: ['element'] })]);
    page.title.value = 'Changed';
    expect(checkField({ op: 'fill', field: 'title', text: 'x' }, at(page, 3)).problems).toEqual([expect.objectContaining({ step: 3, cause: 'page' })]);
    editedBy = 'person';
    expect(checkField({ op: 'fill', field: 'title', text: 'x' }, at(page, 3)).problems).toEqual([expect.objectContaining({ cause: 'person' })]);
    editedBy = null;
    expect(checkField({ op: 'fill', field: 'title', text: 'x' }, at(page, 3)).problems[0]).not.toHaveProperty('cause');
  });
});

describe('checkField: what each kind of step will write', () => {
  const cases: Array<{ name: string; step: PlanStep; predicted?: [string, string]; after: string; planned: boolean }> = [
    { name: 'fill replaces the text', step: { op: 'fill', field: 'title', text: 'New title' }, after: 'New title', planned: true },
    { name: 'append adds to what the inspect saw', step: { op: 'append', field: 'title', text: '!' }, after: 'Old title!', planned: true },
    {
      name: 'append adds to what an earlier step wrote',
      step: { op: 'append', field: 'title', text: '!' },
      predicted: ['title', 'New'],
      after: 'New!',
      planned: true,
    },
    {
      name: 'append adds to the step’s expect.text',
      step: { op: 'append', field: 'title', text: '!', expect: { text: 'Old title' } },
      after: 'Old title!',
      planned: true,
    },
    { name: 'clear empties it', step: { op: 'clear', field: 'title' }, after: '', planned: false },
    { name: 'select chooses the value', step: { op: 'select', field: 'category', value: 'news' }, after: 'news', planned: false },
    { name: 'fill with no images keeps plain text', step: { op: 'fill', field: 'title', text: 'A', images: {} }, after: 'A', planned: true },
  ];
  it.each(cases)('$name', ({ step, predicted, after, planned }) => {
    const found = checkField(step as Exclude<PlanStep, { op: 'click' }>, at(page, 2, { predicted: new Map(predicted ? [predicted] : []) }));
    expect(found.problems).toEqual([]);
    expect(found.write).toMatchObject({ step: 2, expectedAfter: after });
    expect(found.write?.field.name).toBe('field' in step ? step.field : '');
    expect(found.write?.planned === null).toBe(!planned);
    expect(found.write?.image).toBeUndefined();
    expect(found.write?.pieces).toBeUndefined();
  });

  it('what a step expects before it: the earlier step’s text, else the inspect’s hash', () => {
    const earlier = checkField({ op: 'append', field: 'title', text: '!' }, at(page, 1, { predicted: new Map([['title', 'New']]) }));
    expect(earlier.write?.expectedBefore).toEqual({ text: 'New', hash: fieldHash('New') });
    const inspected = checkField({ op: 'fill', field: 'title', text: 'x' }, at(page));
    expect(inspected.write?.expectedBefore).toEqual({ text: null, hash: fieldHash('Old title') });
  });

  it('text too large once converted is refused, in the words of its format', () => {
    const huge = `${'**bold** '.repeat(60_000)}`;
    const found = checkField({ op: 'fill', field: 'body', text: huge, format: 'markdown' }, at(page));
    expect(said(found.problems)).toEqual([['invalid_request', 'The markdown for "body" is too large once converted. Send it in smaller steps.']]);
    expect(found.write).toBeUndefined();
  });
});

describe('checkField: images', () => {
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

  const cases: Array<{ name: string; step: PlanStep; pinned?: boolean; staged?: Record<string, string>; problems: Array<[string, string]> }> = [
    {
      name: 'an editor with no upload path: Tether never links one instead',
      step: { op: 'image', field: 'plain', source: { data: png }, alt: 'a' } as PlanStep,
      problems: [
        [
          'invalid_request',
          '"plain" is a contenteditable editor, which has no image upload Tether can drive; Tether never links an image from elsewhere instead. Put the image in by hand, or into a field whose editor uploads.',
        ],
      ],
    },
    {
      name: 'a markdown fill with images into an editor with no upload path',
      step: { op: 'fill', field: 'plain', text: '![a](image:one)', format: 'markdown', images: { one: { data: png } } },
      problems: [
        [
          'invalid_request',
          '"plain" is a contenteditable editor, which has no image upload Tether can drive; Tether never links an image from elsewhere instead. Put the image in by hand, or into a field whose editor uploads.',
        ],
      ],
    },
    {
      name: 'after a block that is not there',
      step: { op: 'image', field: 'body', source: { data: png }, alt: 'a', after: 'Third' } as PlanStep,
      problems: [['invalid_request', 'Where should the image go in "body"? no paragraph starts with “Third”.']],
    },
    { name: 'a dry run needs no bytes', step: { op: 'image', field: 'body', source: { data: png }, alt: 'a', after: 'Second' } as PlanStep, problems: [] },
    {
      name: 'a run whose image bytes were not staged',
      step: { op: 'image', field: 'body', source: { data: png }, alt: 'a' } as PlanStep,
      pinned: true,
      problems: [['invalid_request', 'The image’s bytes did not reach the page. Send the act again.']],
    },
    {
      name: 'a run whose image bytes were staged',
      step: { op: 'image', field: 'body', source: { data: png }, alt: 'a' } as PlanStep,
      pinned: true,
      staged: { '0': 'i0' },
      problems: [],
    },
    {
      name: 'a run whose markdown image bytes were not staged',
      step: { op: 'fill', field: 'body', text: 'Hi\n\n![a](image:one)', format: 'markdown', images: { one: { data: png } } },
      pinned: true,
      staged: { '0/two': 'i1' },
      problems: [['invalid_request', 'The bytes of image:one did not reach the page. Send the act again.']],
    },
  ];
  it.each(cases)('$name', ({ step, pinned, staged, problems }) => {
    const requestId = `images-${Math.random()}`;
    for (const id of Object.values(staged ?? {})) expect(stageImage(requestId, id, 'a.png', png).ok).toBe(true);
    const context = { ...page.context, requestId, ...(staged ? { images: staged } : {}) };
    const found = checkField(step as Exclude<PlanStep, { op: 'click' }>, at(page, 0, { pinned: pinned ?? false, context }));
    expect(said(found.problems)).toEqual(problems);
    expect(found.write === undefined).toBe(problems.length > 0);
  });

  it('an image step changes no text, and says where the image goes', () => {
    const found = checkField(
      { op: 'image', field: 'body', source: { data: png }, alt: 'A cat', after: 'Second' } as Exclude<PlanStep, { op: 'click' }>,
      at(page),
    );
    expect(found.write).toMatchObject({ expectedAfter: 'First block\nSecond block', planned: null, image: { alt: 'A cat', after: 'Second' } });
    const atEnd = checkField({ op: 'image', field: 'body', source: { data: png }, alt: 'A cat' } as Exclude<PlanStep, { op: 'click' }>, at(page));
    expect(atEnd.write?.image).not.toHaveProperty('after');
  });

  it('a markdown fill places each image after the block its text follows (none: at the start)', () => {
    const found = checkField(
      {
        op: 'fill',
        field: 'body',
        text: '![first](image:a)\n\nOne paragraph\n\n![second](image:b)\n\nTwo paragraph\n\n![third](image:c)![fourth](image:a)',
        format: 'markdown',
        images: { a: { data: png }, b: { data: png }, c: { data: png } },
      },
      at(page),
    );
    expect(found.problems).toEqual([]);
    expect(found.write?.planned).not.toBeNull();
    expect(found.write?.pieces?.map((piece) => [piece.alt, piece.after])).toEqual([
      ['first', undefined],
      ['second', 'One paragraph'],
      ['third', 'Two paragraph'],
      ['fourth', 'Two paragraph'],
    ]);
    expect(found.write?.pieces?.[0]).not.toHaveProperty('after');
    expect(found.write?.expectedAfter).toBe('One paragraph\nTwo paragraph');
  });

  it('a markdown fill with images too large once converted is refused', () => {
    const found = checkField(
      { op: 'fill', field: 'body', text: `${'**bold** '.repeat(60_000)}\n\n![a](image:a)`, format: 'markdown', images: { a: { data: png } } },
      at(page),
    );
    expect(said(found.problems)).toEqual([['invalid_request', 'The markdown for "body" is too large once converted. Send it in smaller steps.']]);
  });
});

describe('validateSteps: every step, with what the earlier ones leave in each field', () => {
  it('a later step on the same field expects what the earlier one wrote, and every problem is listed in order', () => {
    const plan: Plan = {
      steps: [
        { op: 'fill', field: 'title', text: 'New' },
        { op: 'append', field: 'title', text: '!' },
        { op: 'fill', field: 'summary', text: 'x' },
        { op: 'click', action: 'send' },
        { op: 'click', action: 'save' },
      ],
    };
    const validation = validateSteps(plan, page.model, page.context, false);
    expect(validation.problems.map((item) => [item.step, item.code])).toEqual([
      [2, 'invalid_request'],
      [3, 'invalid_request'],
    ]);
    expect([...validation.writes.keys()]).toEqual([0, 1]);
    expect(validation.writes.get(1)).toMatchObject({ expectedBefore: { text: 'New' }, expectedAfter: 'New!' });
    expect(validation.clicks.map((click) => [click.step, click.action])).toEqual([[4, 'save']]);
  });

  it('a step that cannot run predicts nothing: the next step on that field expects the inspect', () => {
    page.title.value = 'Changed';
    const validation = validateSteps(
      {
        steps: [
          { op: 'fill', field: 'title', text: 'x', format: 'markdown' },
          { op: 'append', field: 'title', text: '!' },
        ],
      },
      page.model,
      { ...page.context, elements: {} },
      false,
    );
    expect(validation.problems.map((item) => item.step)).toEqual([0, 1]);
    expect(validation.writes.size).toBe(0);
  });

  it('a run checks clicks against their pins; a dry run does not', () => {
    const plan: Plan = { steps: [{ op: 'click', action: 'save' }] };
    expect(validateSteps(plan, page.model, page.context, false).problems).toEqual([]);
    expect(validateSteps(plan, page.model, page.context, true).problems.map((item) => item.code)).toEqual(['context_changed']);
  });

  it('checkStep sends each step to its kind’s validator', () => {
    expect(checkStep({ op: 'click', action: 'save' }, at(page)).click?.action).toBe('save');
    expect(checkStep({ op: 'clear', field: 'title' }, at(page)).write?.expectedAfter).toBe('');
  });
});

describe('checkField: an image step into the site’s own file chooser (kind file)', () => {
  function chooser(): Scene {
    const photo = document.createElement('input');
    Object.assign(photo, { id: 'photo', type: 'file', accept: 'image/png' });
    const photos = document.createElement('input');
    Object.assign(photos, { id: 'photos', type: 'file', multiple: true });
    document.body.append(photo, photos);
    const added = [field('photo', photo), field('photos', photos)];
    page.model.fields.push(...added);
    for (const item of added) {
      page.context.inspected[item.name] = fieldHash(readText(item));
      page.context.elements[item.name] = idOf(item.editable.element);
    }
    return page;
  }
  const pngType = { '0': 'image/png' as const };
  const cases: Array<{ name: string; step: PlanStep; scene?: Partial<StepScene>; types?: PlanContext['types']; problems: Array<[string, string]> }> = [
    {
      name: 'a text step into a chooser',
      step: { op: 'fill', field: 'photo', text: 'x' },
      problems: [['invalid_request', '"photo" is a file chooser: put a photo in it with an image step.']],
    },
    {
      name: 'a place inside a chooser',
      step: { op: 'image', field: 'photo', source: { data: 'AA==' }, alt: '', after: 'First' },
      types: pngType,
      problems: [['invalid_request', '"photo" is a file chooser: a photo has no place inside it, so leave out after.']],
    },
    {
      name: 'a dry run the image’s type did not reach',
      step: { op: 'image', field: 'photo', source: { data: 'AA==' }, alt: '' },
      problems: [['invalid_request', 'The image’s type did not reach the page. Send the act again.']],
    },
    {
      name: 'a type the chooser does not accept',
      step: { op: 'image', field: 'photo', source: { data: 'AA==' }, alt: '' },
      types: { '0': 'image/jpeg' },
      problems: [['invalid_request', '"photo" accepts image/png; this image is image/jpeg (by its bytes). Choose an image it accepts.']],
    },
    {
      name: 'two photos into a chooser without multiple',
      step: { op: 'image', field: 'photo', source: { data: 'AA==' }, alt: '' },
      types: pngType,
      scene: { imagesInto: new Map([['photo', 2]]) },
      problems: [['invalid_request', '"photo" is a file chooser that takes one file (no multiple), and this plan puts 2 photos in it: send one per act.']],
    },
    {
      name: 'two photos into a chooser with multiple',
      step: { op: 'image', field: 'photos', source: { data: 'AA==' }, alt: '' },
      types: pngType,
      scene: { imagesInto: new Map([['photos', 2]]) },
      problems: [],
    },
    { name: 'one photo of a type it accepts', step: { op: 'image', field: 'photo', source: { data: 'AA==' }, alt: 'A cat' }, types: pngType, problems: [] },
    {
      name: 'a run whose bytes were not staged',
      step: { op: 'image', field: 'photo', source: { data: 'AA==' }, alt: '' },
      scene: { pinned: true },
      problems: [['invalid_request', 'The image’s bytes did not reach the page. Send the act again.']],
    },
  ];
  it.each(cases)('$name', ({ step, scene: extra, types, problems }) => {
    const page = chooser();
    const context = { ...page.context, ...(types ? { types } : {}) };
    const found = checkField(step as Exclude<PlanStep, { op: 'click' }>, at(page, 0, { context, ...extra }));
    expect(said(found.problems)).toEqual(problems);
    expect(found.write === undefined).toBe(problems.length > 0);
    if (found.write) {
      // What a chooser reads as once a file is chosen (the HTML Living Standard's filename mode); no upload path of an editor is asked for.
      expect(found.write).toMatchObject({ expectedAfter: 'C:\\fakepath\\image', planned: null, file: { alt: step.op === 'image' ? step.alt : '' } });
      expect(found.write.image).toBeUndefined();
    }
  });

  it('validateSteps counts the plan’s photos into each chooser', () => {
    const page = chooser();
    const plan: Plan = {
      steps: [
        { op: 'image', field: 'photo', source: { data: 'AA==' }, alt: '' },
        { op: 'image', field: 'photo', source: { data: 'AA==' }, alt: '' },
      ],
    };
    const found = validateSteps(plan, page.model, { ...page.context, types: { '0': 'image/png', '1': 'image/png' } }, false);
    expect(found.problems.map((item) => item.step)).toEqual([0, 1]);
    expect(found.problems[0]?.message).toContain('takes one file');
  });
});
