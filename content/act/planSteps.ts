/**
 * A plan's validation, one small function per step kind (runPlan.ts step 1). Each looks at the page
 * as it is now and answers the problems its step has, and when it has none, what the step will do:
 * the write (what the field holds before and after it) or the click (the element it presses). The
 * loop (`validateSteps`) only threads what earlier steps will have left in each field.
 */
import { checkFieldBinding, pinDrift, type ClickPin, type SeenElement } from '../../shared/page/elementBinding.ts';
import type { ActionKind, PlanProblem } from '../../shared/page/pageProtocol.ts';
import { APPROVAL_ACTION_KINDS } from '../../shared/page/pageProtocol.ts';
import type { ImageType } from '../../shared/imageBytes.ts';
import { markdownPieces } from '../../shared/agent/planImages.ts';
import type { Plan, PlanStep } from '../../shared/agent/agentProtocol.ts';
import { elementId, personIsTyping, seenElement } from './actHost.ts';
import { acceptOf, isDisabled, readEditable, typingSurface } from '../editables.ts';
import { familyOf } from '../editors/families/index.ts';
import { acceptsType } from '../editors/fileInput.ts';
import { blockAfter, partlyDrawn, type StagedImage } from '../editors/image.ts';
import { TooLarge } from '../editors/structuredText.ts';
import { fieldExpectation, holdsExpected, type FieldExpectation } from './fieldExpectation.ts';
import { stagedImage } from './imageStage.ts';
import type { LocatedAction, LocatedField, PageModel } from '../pageModel.ts';
import { fieldChanged, movedElement, problem } from './planProblems.ts';
import { planText, type PlannedText } from './writeField.ts';

/** What the worker sends with a plan: what this handle saw of the page, and, for a run, the dry run's clicks. */
export interface PlanContext {
  /** Field hashes the last inspect saw. */
  inspected: Record<string, string>;
  /** The element each field name meant when the handle last saw the page. */
  elements: Record<string, string>;
  /** For a run: the element each click was validated (and approved) against at the dry run. */
  pins: ClickPin[];
  /** The act's request id and its staged images, by use (shared/agent/planImages.ts): their bytes are kept by id. */
  requestId?: string;
  images?: Record<string, string>;
  /** Each image's type by its bytes, by use: what a dry run checks a file chooser's accept= against (a run checks the staged bytes' own). */
  types?: Record<string, ImageType>;
}

export interface PlacedImage {
  image: StagedImage;
  alt: string;
  /** The block the image goes after (none: at the end). */
  after?: string;
}

export interface PlannedWrite {
  step: number;
  field: LocatedField;
  /** What the field should hold before this step, and the text after it. */
  expectedBefore: FieldExpectation;
  expectedAfter: string;
  /** fill/append: the text converted for the editor (markdown/HTML), checked before anything runs. */
  planned: PlannedText | null;
  /** A markdown fill/append that places images: each image, after the block its text follows (none: at the start of the text, put at the end). */
  pieces?: PlacedImage[];
  /** An image step: the bytes and where they go. */
  image?: PlacedImage;
  /** An image step into the site's own file chooser: the photo chosen in it (its script uploads it). */
  file?: { image: StagedImage; alt: string };
}

export interface PlannedClick {
  step: number;
  action: string;
  kind: ActionKind;
  located: LocatedAction;
  seen: SeenElement;
}

export interface Validation {
  problems: PlanProblem[];
  writes: Map<number, PlannedWrite>;
  clicks: PlannedClick[];
}

/** What a step's validator sees: the page, the worker's context, and what earlier steps leave in each field. */
export interface StepScene {
  index: number;
  /** The plan's step count (a publishing click must be the last step). */
  steps: number;
  model: PageModel;
  context: PlanContext;
  /** A run (not a dry run): each click is checked against the dry run's pin, and the images' bytes must be staged. */
  pinned: boolean;
  /** What each field will hold after the steps before this one. */
  predicted: ReadonlyMap<string, string>;
  /** How many image steps the plan has into each field (a file chooser without `multiple` takes one). */
  imagesInto: ReadonlyMap<string, number>;
}

/** A step's answer: its problems, and (when it can run) what it will do. */
export interface StepCheck {
  problems: PlanProblem[];
  write?: PlannedWrite;
  click?: PlannedClick;
}

type StepOf<Op extends PlanStep['op']> = Extract<PlanStep, { op: Op }>;
type FieldStep = Exclude<PlanStep, { op: 'click' }>;

function names(items: Array<{ name: string }>): string {
  return items.map((item) => item.name).join(', ') || 'none';
}

export function checkClick(step: StepOf<'click'>, scene: StepScene): StepCheck {
  const { index } = scene;
  const located = scene.model.actions.find((action) => action.name === step.action);
  if (!located)
    return { problems: [problem(index, 'invalid_request', `No action "${step.action}" on this page. Actions here: ${names(scene.model.actions)}.`)] };
  const problems: PlanProblem[] = [];
  if (isDisabled(located.element)) problems.push(problem(index, 'invalid_request', `The "${step.action}" button is disabled now.`));
  if (APPROVAL_ACTION_KINDS.includes(located.kind) && index !== scene.steps - 1) {
    problems.push(problem(index, 'invalid_request', `"${step.action}" publishes and cannot be undone, so it must be the last step.`));
  }
  const seen = seenElement(located.element);
  if (scene.pinned) {
    const pin = scene.context.pins.find((item) => item.step === index);
    const drift = pinDrift(pin, seen);
    if (drift.length > 0) problems.push(movedElement(index, step.action, drift, pin, seen));
  }
  return { problems, click: { step: index, action: step.action, kind: located.kind, located, seen } };
}

/** A field step's target, ready to be written: the field, what it must hold before, and what it holds now. */
interface Target {
  field: LocatedField;
  expectedBefore: FieldExpectation;
  /** The text the step starts from: the expected text when known, else the field's text now. */
  base: string;
}

/**
 * What every field step checks first: the field is there and takes this kind of step, is enabled,
 * the person is not typing in it, the plan says what it holds, its name still means the element
 * this handle saw, and (unless an earlier step writes it) it holds that now. `target` is null when
 * the step cannot go further; a typing person or a changed field are listed and checking goes on.
 */
function checkTarget(step: FieldStep, scene: StepScene): { problems: PlanProblem[]; target: Target | null } {
  const { index, model, context } = scene;
  const refuse = (found: PlanProblem, problems: PlanProblem[] = []) => ({ problems: [...problems, found], target: null });
  const field = model.fields.find((candidate) => candidate.name === step.field);
  if (!field) return refuse(problem(index, 'invalid_request', `No field "${step.field}" on this page. Fields here: ${names(model.fields)}.`));
  if (field.editable.kind === 'file' && step.op !== 'image') {
    return refuse(
      problem(index, 'invalid_request', `"${step.field}" is a file chooser: put a photo in it with an image step.`, { editor: field.editable.family }),
    );
  }
  const isSelect = field.editable.kind === 'select';
  if (isSelect !== (step.op === 'select')) {
    return refuse(
      problem(index, 'invalid_request', isSelect ? `"${step.field}" is a choice: use select.` : `"${step.field}" is text: use fill, append or clear.`),
    );
  }
  if (isDisabled(field.editable.element)) return refuse(problem(index, 'invalid_request', `"${step.field}" is disabled or read-only on the page.`));
  const problems: PlanProblem[] = [];
  const typing = personIsTyping(typingSurface(field.editable));
  if (typing) {
    const words = typing === 'composing' ? `The person is composing text (IME) in "${step.field}".` : `The person is typing in "${step.field}".`;
    problems.push(problem(index, 'target_busy', words));
  }
  const current = readEditable(field.editable);
  const prior = scene.predicted.get(field.name);
  const expectedBefore = fieldExpectation({ planned: prior, expect: step.expect, inspected: context.inspected[field.name] });
  if (expectedBefore === null) {
    return refuse(
      problem(index, 'invalid_request', `Say what "${step.field}" holds now: inspect this handle first, or give expect.hash or expect.text.`),
      problems,
    );
  }
  // The name must still mean the element this handle saw: a page can move a name to another element.
  const binding = checkFieldBinding(context.elements[field.name], elementId(field.editable.element));
  if (binding !== 'same') {
    const words =
      binding === 'unknown'
        ? `Tether has not seen "${step.field}" through this handle. Inspect again and rebuild the plan.`
        : `"${step.field}" now means another element on the page than when this handle inspected it. Inspect again and rebuild the plan.`;
    return refuse(problem(index, 'field_changed', words, { changed: ['element'] }), problems);
  }
  // A field an earlier step writes is checked when that step has run (its text is predicted, not read).
  if (prior === undefined && !holdsExpected(current, expectedBefore)) problems.push(fieldChanged(index, field, 'since it was inspected'));
  return { problems, target: { field, expectedBefore, base: expectedBefore.text ?? current } };
}

/** What a field step's kind adds once its target is known (checkTarget): its write, or the problem that stops it. */
type Write = Omit<PlannedWrite, 'step' | 'field' | 'expectedBefore'>;
type WriteOrProblem = Write | { problem: PlanProblem };
type WriteCheck<Op extends FieldStep['op']> = (step: StepOf<Op>, target: Target, scene: StepScene) => WriteOrProblem;

function tooLarge(index: number, step: FieldStep, format: string): { problem: PlanProblem } {
  return { problem: problem(index, 'invalid_request', `The ${format} for "${step.field}" is too large once converted. Send it in smaller steps.`) };
}

/** Converts text for the editor, or answers null when it is too large once converted. */
function planned(convert: () => PlannedText): PlannedText | null {
  try {
    return convert();
  } catch (error) {
    if (!(error instanceof TooLarge)) throw error;
    return null;
  }
}

/** The field's editor must have an upload path: Tether never links an image from elsewhere instead. */
function noUpload(target: Target, index: number): { problem: PlanProblem } | null {
  const family = familyOf(target.field.editable);
  if (family.image) return null;
  const words = `"${target.field.name}" is a ${family.id} editor, which has no image upload Tether can drive; Tether never links an image from elsewhere instead. Put the image in by hand, or into a field whose editor uploads.`;
  return { problem: problem(index, 'invalid_request', words, { editor: family.id }) };
}

/**
 * A staged image's bytes by its use (shared/agent/planImages.ts), or null when they did not reach the
 * page. A dry run sees no bytes (they are staged for the run only): a stand-in keeps the checks
 * the same.
 */
function stagedBytes(scene: StepScene, use: string): StagedImage | null {
  if (!scene.pinned) return { blob: new Blob(), name: 'image', type: 'image/png', width: 1, height: 1 };
  const { requestId, images } = scene.context;
  const id = images?.[use];
  return id !== undefined && requestId !== undefined ? stagedImage(requestId, id) : null;
}

/**
 * A markdown fill/append that places images: the text goes in as one markdown write (its images
 * left out), then each image after the block it follows in the text (the first words of that
 * block's text), verified in turn.
 */
function textWithImages(step: StepOf<'fill' | 'append'>, target: Target, scene: StepScene): WriteOrProblem {
  const { index } = scene;
  const refused = noUpload(target, index);
  if (refused) return refused;
  const bytes: Record<string, StagedImage> = {};
  for (const key of Object.keys(step.images ?? {})) {
    const found = stagedBytes(scene, `${index}/${key}`);
    if (!found) return { problem: problem(index, 'invalid_request', `The bytes of image:${key} did not reach the page. Send the act again.`) };
    bytes[key] = found;
  }
  const { editable } = target.field;
  const parts = markdownPieces(step.text);
  const whole = planned(() =>
    planText(
      editable,
      step.op,
      parts
        .map((part) => part.text.trim())
        .filter(Boolean)
        .join('\n\n'),
      'markdown',
    ),
  );
  if (!whole) return tooLarge(index, step, 'markdown');
  const appending = appendRefused(step, target, index, whole);
  if (appending) return appending;
  const pieces: PlacedImage[] = [];
  let lastBlock: string | undefined;
  for (const part of parts) {
    const text = part.text.trim();
    if (text !== '') {
      const block = planned(() => planText(editable, 'fill', text, 'markdown'));
      if (!block) return tooLarge(index, step, 'markdown');
      const lines = block.payload.htmlText
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      lastBlock = lines[lines.length - 1] ?? lastBlock;
    }
    if (part.image) {
      const image = bytes[part.image.key] as StagedImage;
      pieces.push({ image, alt: part.image.alt, ...(lastBlock === undefined ? {} : { after: lastBlock }) });
    }
  }
  return { expectedAfter: whole.expected(target.base)[0] ?? '', planned: whole, pieces };
}

/** An editor that would not keep appended blocks refuses before anything is written (families/family.ts appendRefused). */
function appendRefused(step: StepOf<'fill' | 'append'>, target: Target, index: number, converted: PlannedText): { problem: PlanProblem } | null {
  const { editable } = target.field;
  const words = step.op === 'append' ? familyOf(editable).appendRefused?.(converted.payload.constructs) : null;
  return words ? { problem: problem(index, 'invalid_request', words, { editor: editable.family }) } : null;
}

/** fill and append: the text converted for the editor (markdown/HTML); with images, a markdown write and each image after its block. */
const text = (step: StepOf<'fill' | 'append'>, target: Target, scene: StepScene): WriteOrProblem => {
  if (step.images && Object.keys(step.images).length > 0) return textWithImages(step, target, scene);
  const format = step.format ?? 'text';
  const converted = planned(() => planText(target.field.editable, step.op, step.text, format));
  if (!converted) return tooLarge(scene.index, step, format);
  const refused = appendRefused(step, target, scene.index, converted);
  if (refused) return refused;
  return { expectedAfter: converted.expected(target.base)[0] ?? '', planned: converted };
};

const clear: WriteCheck<'clear'> = () => ({ expectedAfter: '', planned: null });

const select: WriteCheck<'select'> = (step) => ({ expectedAfter: step.value, planned: null });

/**
 * An image step into a file chooser, or the problem: it has no inside (no `after`), it must accept
 * the image's type (its accept=, by the type the bytes say), and one without `multiple` takes one
 * photo per act (a second choice would replace the first on many sites). What it reads as once a
 * file is chosen is the HTML Living Standard's filename mode.
 */
const fileChoice: WriteCheck<'image'> = (step, target, scene) => {
  const { index, context } = scene;
  const { field } = target;
  const refuse = (message: string) => ({ problem: problem(index, 'invalid_request', message, { editor: field.editable.family }) });
  if (step.after !== undefined) return refuse(`"${field.name}" is a file chooser: a photo has no place inside it, so leave out after.`);
  const input = field.editable.element as HTMLInputElement;
  const into = scene.imagesInto.get(step.field) ?? 1;
  if (into > 1 && !input.multiple) {
    return refuse(`"${field.name}" is a file chooser that takes one file (no multiple), and this plan puts ${into} photos in it: send one per act.`);
  }
  const use = String(index);
  const dryRun = !scene.pinned;
  const id = context.images?.[use];
  const type = dryRun ? context.types?.[use] : undefined;
  const chosen = dryRun
    ? type && { blob: new Blob(), name: 'image', type, width: 1, height: 1 }
    : id !== undefined && context.requestId !== undefined
      ? stagedImage(context.requestId, id)
      : null;
  if (!chosen)
    return refuse(dryRun ? 'The image’s type did not reach the page. Send the act again.' : 'The image’s bytes did not reach the page. Send the act again.');
  const accept = acceptOf(input);
  if (!acceptsType(accept, chosen.type)) {
    return refuse(`"${field.name}" accepts ${accept.join(', ')}; this image is ${chosen.type} (by its bytes). Choose an image it accepts.`);
  }
  return { expectedAfter: `C:\\fakepath\\${chosen.name}`, planned: null, file: { image: chosen, alt: step.alt } };
};

/** An image step: the field's editor uploads, the block it goes after is there, the bytes reached the page. It changes no text. */
const image: WriteCheck<'image'> = (step, target, scene) => {
  const { index } = scene;
  if (target.field.editable.kind === 'file') return fileChoice(step, target, scene);
  const refused = noUpload(target, index);
  if (refused) return refused;
  // A CodeMirror document not all drawn (gaps for the rest) is checked by its own path against its whole source (markdownImage.ts).
  if (step.after !== undefined && !partlyDrawn(target.field.editable.element)) {
    const found = blockAfter(target.field.editable.element, step.after);
    if ('problem' in found) return { problem: problem(index, 'invalid_request', `Where should the image go in "${target.field.name}"? ${found.problem}.`) };
  }
  const bytes = stagedBytes(scene, String(index));
  if (!bytes) return { problem: problem(index, 'invalid_request', 'The image’s bytes did not reach the page. Send the act again.') };
  return { expectedAfter: target.base, planned: null, image: { image: bytes, alt: step.alt, ...(step.after === undefined ? {} : { after: step.after }) } };
};

const WRITE_CHECKS: { [Op in FieldStep['op']]: WriteCheck<Op> } = { fill: text, append: text, clear, select, image };

/** Validates one field step: its target (checkTarget), then what its kind checks. */
export function checkField(step: FieldStep, scene: StepScene): StepCheck {
  const { problems, target } = checkTarget(step, scene);
  if (!target) return { problems };
  const check = WRITE_CHECKS[step.op] as WriteCheck<FieldStep['op']>;
  const write = check(step, target, scene);
  if ('problem' in write) return { problems: [...problems, write.problem] };
  return { problems, write: { step: scene.index, field: target.field, expectedBefore: target.expectedBefore, ...write } };
}

export function checkStep(step: PlanStep, scene: StepScene): StepCheck {
  return step.op === 'click' ? checkClick(step, scene) : checkField(step, scene);
}

/** Validates every step; `pinned` checks each click against the dry run's (a run, not a dry run). */
export function validateSteps(plan: Plan, model: PageModel, context: PlanContext, pinned: boolean): Validation {
  const validation: Validation = { problems: [], writes: new Map(), clicks: [] };
  // What each field will hold after the steps so far: later steps expect that, not the inspect.
  const predicted = new Map<string, string>();
  const imagesInto = new Map<string, number>();
  for (const step of plan.steps) if (step.op === 'image') imagesInto.set(step.field, (imagesInto.get(step.field) ?? 0) + 1);
  plan.steps.forEach((step, index) => {
    const found = checkStep(step, { index, steps: plan.steps.length, model, context, pinned, predicted, imagesInto });
    validation.problems.push(...found.problems);
    if (found.click) validation.clicks.push(found.click);
    if (found.write) {
      predicted.set(found.write.field.name, found.write.expectedAfter);
      validation.writes.set(index, found.write);
    }
  });
  return validation;
}
