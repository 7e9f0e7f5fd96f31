// @vitest-environment happy-dom
/**
 * runPlan in a DOM (happy-dom): the expectation is applied at validation and again right before
 * each write. The second check is what stops a write into a field the page's own script changed
 * while the plan ran — the window validation cannot see (a slug or summary the page derives from
 * the title, rewritten when the title step writes). Plain fields only: the editor families are
 * driven in real browsers by the e2e suites.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fieldHash } from '../../shared/page/fieldText.ts';
import type { PageActResult } from '../../shared/page/pageProtocol.ts';
import type { Plan } from '../../shared/agent/agentProtocol.ts';
import type { ActHost } from './actContract.ts';
import { bindHost } from './actHost.ts';
import { editableFrom, type Editable } from '../editables.ts';
import type { LocatedField, PageModel } from '../pageModel.ts';
import { runPlan, type PlanContext } from './runPlan.ts';

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

/** What the content script would lend, reduced to what these plans touch. */
function host(model: () => PageModel, typing: () => Element | null = () => null): ActHost {
  return {
    readPageModel: model,
    draftState: () => ({ inProgress: false, reasons: [] }),
    rememberTetherWrite: () => undefined,
    personIsTyping: (element) => (typing() === element ? 'typing' : null),
    lastEditBy: () => 'page',
    asTether: (edit) => edit(),
    watchDocument: () => undefined,
    elementId: idOf,
    seenElement: (element) => ({ element: idOf(element), label: element.textContent ?? '', fingerprint: 'f' }),
    actPort: () => null,
  };
}

function field(name: string, element: Element): LocatedField {
  const editable = editableFrom(element) as Editable;
  return { name, label: name, editable, draftIfNonEmpty: false, located: element };
}

interface Page {
  title: HTMLInputElement;
  slug: HTMLInputElement;
  model: PageModel;
  /** What an inspect of the page now would hand the worker. */
  context(): PlanContext;
}

function page(): Page {
  // happy-dom has no execCommand; a browser answers false for a command it does not run, and
  // Tether then writes through the native setter (which fires the input events pages listen to).
  if (typeof document.execCommand !== 'function') Object.assign(document, { execCommand: () => false });
  document.body.innerHTML = '<input id="title" type="text"><input id="slug" type="text">';
  const title = document.querySelector('#title') as HTMLInputElement;
  const slug = document.querySelector('#slug') as HTMLInputElement;
  const model: PageModel = {
    adapterId: 'test',
    fields: [field('title', title), field('slug', slug)],
    actions: [],
    readable: new Map(),
    signIn: { state: 'unknown', account: null, via: 'none' },
    draftBanner: false,
  };
  return {
    title,
    slug,
    model,
    context: () => ({
      inspected: { title: fieldHash(title.value), slug: fieldHash(slug.value) },
      elements: { title: idOf(title), slug: idOf(slug) },
      pins: [],
    }),
  };
}

let requests = 0;
function run(scene: Page, plan: Plan, context = scene.context()): Promise<PageActResult> {
  requests += 1;
  return runPlan(`request-${requests}`, plan, context, false, false);
}

const TITLE_THEN_SLUG: Plan = {
  steps: [
    { op: 'fill', field: 'title', text: 'Spring market' },
    { op: 'fill', field: 'slug', text: 'spring-market-2026' },
  ],
};

describe('runPlan: the field is compared with what the plan expects right before each write', () => {
  let scene: Page;
  beforeEach(() => {
    scene = page();
    bindHost(host(() => scene.model));
  });

  it('a plan on an unchanged page runs and is read back', async () => {
    const result = await run(scene, TITLE_THEN_SLUG);
    expect(result.ok).toBe(true);
    expect([scene.title.value, scene.slug.value]).toEqual(['Spring market', 'spring-market-2026']);
  });

  it('the page’s own script changes a later field while the plan runs → field_changed, nothing written', async () => {
    const context = scene.context();
    // The page derives the slug from the title as the title is written: after validation, before step 2.
    scene.title.addEventListener('input', () => {
      scene.slug.value = scene.title.value.toLowerCase().replace(/\s+/g, '-');
    });
    const result = await run(scene, TITLE_THEN_SLUG, context);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('field_changed');
    expect(result.problems).toEqual([expect.objectContaining({ step: 1, code: 'field_changed', cause: 'page' })]);
    // Step 1 ran and was put back; step 2 never wrote.
    expect(result.ran.map((step) => step.step)).toEqual([0]);
    expect(result.rolledBack).toEqual([0]);
    expect(scene.title.value).toBe('');
    // The slug holds what the page's own script derived from the restored (empty) title, not the plan's text.
    expect(scene.slug.value).toBe('');
  });

  it('a field the page changed before the plan arrived is refused at validation (nothing runs)', async () => {
    const context = scene.context();
    scene.slug.value = 'set-by-the-page';
    const result = await run(scene, TITLE_THEN_SLUG, context);
    expect(result.ok ? 'ok' : result.error.code).toBe('field_changed');
    expect(result.ok ? [] : result.ran).toEqual([]);
    expect([scene.title.value, scene.slug.value]).toEqual(['', 'set-by-the-page']);
  });

  it('a field the plan wrote, changed by the page before the plan writes it again → field_changed, nothing written', async () => {
    const context = scene.context();
    // Writing the slug makes the page touch the title the plan wrote one step earlier.
    scene.slug.addEventListener('input', () => {
      if (scene.slug.value !== '') scene.title.value += ' (checked by the page)';
    });
    const result = await run(
      scene,
      {
        steps: [
          { op: 'fill', field: 'title', text: 'Spring' },
          { op: 'fill', field: 'slug', text: 'spring' },
          { op: 'append', field: 'title', text: ' market' },
        ],
      },
      context,
    );
    expect(result.ok ? 'ok' : result.error.code).toBe('field_changed');
    if (result.ok) return;
    expect(result.problems).toEqual([expect.objectContaining({ step: 2, code: 'field_changed' })]);
    expect(result.rolledBack).toEqual([1, 0]);
    expect([scene.title.value, scene.slug.value]).toEqual(['', '']);
  });

  it('the person starts typing in a later field while the plan runs → target_busy, nothing written', async () => {
    const context = scene.context();
    let typingIn: Element | null = null;
    bindHost(
      host(
        () => scene.model,
        () => typingIn,
      ),
    );
    scene.title.addEventListener('input', () => {
      typingIn = scene.slug;
    });
    const result = await run(scene, TITLE_THEN_SLUG, context);
    expect(result.ok ? 'ok' : result.error.code).toBe('target_busy');
    expect([scene.title.value, scene.slug.value]).toEqual(['', '']);
  });
});
