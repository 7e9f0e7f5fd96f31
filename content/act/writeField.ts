/**
 * Safe writes that keep the person's undo and the page's own model.
 *
 * The editor family's descriptor (editors/families/<id>.ts) decides the path (editors/deliver.ts):
 * `execCommand('insertText')` for plain fields and editors that follow the DOM (the browser
 * records it in the undo stack and fires the
 * trusted input events frameworks listen to), a `paste` or `beforeinput` event for editors that
 * keep their own model (CKEditor 5, Lexical, Slate, Draft.js, TinyMCE, CodeMirror), which then
 * record it in their own history, and native setters as the last resort. Either way the text is
 * read back: success means the page's model kept it, not that a call returned. Markdown and HTML
 * go in as allowlisted HTML where the editor maps it into its schema, as text elsewhere.
 */
import { normalizeFieldText, sameFieldText } from '../../shared/page/fieldText.ts';
import type { TextFormat } from '../../shared/agent/planSchema.ts';
import { asTether } from './actHost.ts';
import { readEditable, readEditableHtml, type Editable } from '../editables.ts';
import type { EditorFamily } from '../editorFamily.ts';
import { deliver, type Mode } from '../editors/deliver.ts';
import { familyOf } from '../editors/families/index.ts';
import type { DriverOutcome, HeadingLevel } from '../editors/families/family.ts';
import { headingCounts, headingFor, isHeading } from '../editors/headingLevels.ts';
import { settle } from '../editors/settle.ts';
import { blockText, constructCounts, parseHtml, semanticHtml, type Construct } from '../editors/semanticHtml.ts';
import { preparePayload, type Payload } from '../editors/structuredText.ts';

export interface WriteOutcome {
  editor: EditorFamily;
  /** The path that took ("execCommand", "paste", …); null when none did. */
  path: string | null;
  tried: string[];
  verified: boolean;
  text: string;
  took?: 'html' | 'text';
  /** The constructs the editor kept, in its own names where a driver reads its model (an image step: `img`). */
  kept?: string[];
  dropped?: string[];
  /** Why nothing was written, or what each path that ran met (a family's own driver says it). */
  why?: string;
  /** Whether the person's Ctrl+Z undoes the write (`editor`) or only Tether's rollback does (`tether`), where the driver knows. */
  undo?: 'editor' | 'tether';
  /** False when nothing reached the page (a driver looked and chose not to write). */
  sent?: false;
}

/** A family's own driver's outcome as a write's (the step's editor is the family). */
function fromDriver(editable: Editable, outcome: DriverOutcome): WriteOutcome {
  return {
    editor: editable.family,
    path: outcome.path,
    tried: outcome.tried,
    verified: outcome.verified,
    text: outcome.text,
    ...(outcome.kept && outcome.kept.length > 0 ? { took: 'html' as const, kept: outcome.kept } : {}),
    ...(outcome.dropped && outcome.dropped.length > 0 ? { dropped: outcome.dropped } : {}),
    ...(outcome.why ? { why: outcome.why } : {}),
    ...(outcome.undo ? { undo: outcome.undo } : {}),
    ...(outcome.sent === false ? { sent: false as const } : {}),
  };
}

export interface FieldSnapshot {
  text: string;
  /** What a family's own driver keeps to put the field back (its model, a widget's value). */
  driver?: unknown;
  /** The raw markup (plain contenteditables put it back as it was). */
  html: string | null;
  /** The allowlisted markup, for editors with their own model (they take it back through paste). */
  semantic: string | null;
}

/** Fields whose value is plain text: markdown goes in as its source. */
export function isPlainField(editable: Editable): boolean {
  return familyOf(editable).text === 'plain';
}

/** Rich editors that follow the DOM itself rather than a model of their own. */
function isNativeRich(editable: Editable): boolean {
  return familyOf(editable).model === 'dom';
}

/** Comparing rich text: editors differ in blank lines and in how they collapse spaces. */
function loose(text: string): string {
  return normalizeFieldText(text)
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/** A form control's value compares exactly; an editor's text loosely. */
export function sameText(editable: Editable, a: string, b: string): boolean {
  return familyOf(editable).model === 'value' ? sameFieldText(a, b) : loose(a) === loose(b);
}

/** A separator so that appended markdown starts a new block in a plain-text field. */
function blockSeparator(before: string): string {
  if (before.trim() === '') return '';
  return before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
}

export interface PlannedText {
  payload: Payload;
  /** What the field may read after the write: the rendered markup, or the text (plain fields). */
  expected(before: string): string[];
}

/** Converts and checks a fill/append step's text before anything runs (TooLarge throws). */
export function planText(editable: Editable, mode: 'fill' | 'append', text: string, format: TextFormat): PlannedText {
  const payload = preparePayload(format, text);
  const structured = format !== 'text';
  return {
    payload,
    expected(before) {
      if (!structured) return [mode === 'fill' ? payload.text : before + payload.text];
      const plain = mode === 'fill' ? payload.text : before + blockSeparator(before) + payload.text;
      if (isPlainField(editable)) return [plain];
      const rich = mode === 'fill' || before.trim() === '' ? payload.htmlText : `${before}\n${payload.htmlText}`;
      return [rich, plain];
    },
  };
}

function emptyPayload(): Payload {
  return { format: 'text', text: '', html: '', htmlText: '', constructs: [], removed: [] };
}

/** fill / append / clear one text field, through the family's paths, read back. */
export async function writeText(editable: Editable, mode: Mode, planned: PlannedText | null): Promise<WriteOutcome> {
  const driver = familyOf(editable).driver;
  if (driver?.write) return fromDriver(editable, await driver.write(editable, mode, planned?.payload ?? null));
  if (driver)
    return { editor: editable.family, path: null, tried: [], verified: false, text: readEditable(editable), why: 'this field takes a choice: use select' };
  const before = readEditable(editable);
  const payload = planned?.payload ?? emptyPayload();
  const structured = payload.format !== 'text';
  const countsBefore = structured && !isPlainField(editable) ? constructCounts(parseHtml(semanticHtml(editable.element, { editor: true }))) : null;
  const headingsBefore = headingCounts(editable.element);
  // Appended markup starts a new block: an empty paragraph first takes the caret's block.
  const startsBlock = structured && mode === 'append' && before.trim() !== '';
  const delivered: Payload = {
    ...payload,
    text: startsBlock ? blockSeparator(before) + payload.text : payload.text,
    html: startsBlock && !isPlainField(editable) ? `<p><br></p>${payload.html}` : payload.html,
  };
  const expected = mode === 'clear' ? [''] : (planned?.expected(before) ?? ['']);
  const setterValue = mode === 'clear' ? '' : mode === 'fill' ? delivered.text : before + delivered.text;
  const delivery = await deliver({
    editable,
    mode,
    payload: delivered,
    setterValue,
    accept: (text) => expected.some((candidate) => sameText(editable, text, candidate)),
  });
  const outcome: WriteOutcome = { editor: editable.family, path: delivery.path, tried: delivery.tried, verified: delivery.verified, text: delivery.text };
  if (!delivery.verified && delivery.path !== null) outcome.why = delivery.why ?? notKept(editable, expected);
  else if (delivery.why) outcome.why = delivery.why;
  if (delivery.sent === false) outcome.sent = false;
  if (structured && delivery.verified)
    Object.assign(outcome, structureReport(editable, delivery.text, expected[0] ?? '', payload, countsBefore, headingsBefore));
  return outcome;
}

/**
 * Why a write that changed the field is not verified. The page may show what the editor's model
 * does not keep (markup inside one block of a block editor): the DOM alone would have said yes.
 */
function notKept(editable: Editable, expected: string[]): string {
  const shown = readEditable(editable);
  if (expected.some((candidate) => sameText(editable, shown, candidate)))
    return `the page shows the text, but the ${editable.family} editor's model does not keep it so: it went inside one block, where only that block's text is kept, run together`;
  return `the ${editable.family} editor holds other text than was written`;
}

/** What the editor's model kept of the markup, read back from its DOM after the write. */
function structureReport(
  editable: Editable,
  text: string,
  richText: string,
  payload: Payload,
  countsBefore: Record<Construct, number> | null,
  headingsBefore: Record<HeadingLevel, number>,
) {
  if (isPlainField(editable) || countsBefore === null) {
    return { took: 'text' as const, kept: [], dropped: payload.format === 'html' ? [...payload.constructs, ...payload.removed] : [] };
  }
  const after = constructCounts(parseHtml(semanticHtml(editable.element, { editor: true })));
  // A heading is kept where it landed at the level the editor keeps (headingLevels.ts), not only at its own.
  const headingsAfter = headingCounts(editable.element);
  const landed = (name: Construct): boolean => {
    const level = isHeading(name) ? headingFor(name, familyOf(editable).headings) : null;
    return level ? headingsAfter[level] > headingsBefore[level] : after[name] > countsBefore[name];
  };
  const kept = payload.constructs.filter(landed);
  const tookHtml =
    sameText(editable, text, richText) && (kept.length > 0 || payload.constructs.length === 0 || loose(payload.htmlText) !== loose(payload.text));
  // A plain-text editor (Lexical's plain text, say) took the text/plain part: markdown as its source.
  if (!tookHtml) return { took: 'text' as const, kept: [], dropped: payload.format === 'html' ? [...payload.constructs, ...payload.removed] : [] };
  return { took: 'html' as const, kept, dropped: [...payload.constructs.filter((name) => !kept.includes(name)), ...payload.removed] };
}

export async function selectValue(editable: Editable, value: string): Promise<WriteOutcome> {
  const driver = familyOf(editable).driver;
  if (driver?.select) return fromDriver(editable, await driver.select(editable, value));
  const select = editable.element as HTMLSelectElement;
  const base = { editor: editable.family, tried: ['setter'] } as const;
  const option = Array.from(select.options).find((candidate) => candidate.value === value || candidate.text.trim() === value);
  if (!option) return { ...base, path: null, tried: [], verified: false, text: select.value };
  const prototype = Object.getPrototypeOf(select) as object;
  const setter = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  asTether(() => {
    if (setter) setter.call(select, option.value);
    else select.value = option.value;
    select.dispatchEvent(new Event('input', { bubbles: true }));
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await settle([select], () => select.value === option.value, { quietMs: 20 });
  return { ...base, path: 'setter', tried: ['setter'], verified: select.value === option.value, text: select.value };
}

/** What a rollback needs to put the field back, taken before a plan's first write to it. */
export async function snapshotField(editable: Editable): Promise<FieldSnapshot> {
  const family = familyOf(editable);
  const modelEditor = family.text === 'rich' && family.model === 'own' && !family.driver;
  const snapshot: FieldSnapshot = {
    text: readEditable(editable),
    html: readEditableHtml(editable),
    semantic: modelEditor ? semanticHtml(editable.element, { underline: true, editor: true }) : null,
  };
  if (family.driver) snapshot.driver = await family.driver.snapshot(editable);
  return snapshot;
}

/** Puts a field back as it was before a plan touched it (rollback), formatting included. */
export async function restoreField(editable: Editable, snapshot: FieldSnapshot): Promise<boolean> {
  const driver = familyOf(editable).driver;
  if (driver) return driver.restore(editable, snapshot.driver);
  if (editable.kind === 'select') return (await selectValue(editable, snapshot.text)).verified;
  if (normalizeFieldText(snapshot.text) === '') return (await writeText(editable, 'clear', null)).verified;
  if (snapshot.semantic !== null) {
    // An editor with its own model takes its own content back the way it takes any markup.
    const payload: Payload = {
      format: 'html',
      text: snapshot.text,
      html: snapshot.semantic,
      htmlText: blockText(parseHtml(snapshot.semantic)),
      constructs: [],
      removed: [],
    };
    const delivery = await deliver({ editable, mode: 'fill', payload, setterValue: snapshot.text, accept: (text) => sameText(editable, text, snapshot.text) });
    return delivery.verified;
  }
  if (snapshot.html !== null && isNativeRich(editable)) {
    const html = snapshot.html;
    const payload: Payload = { format: 'html', text: snapshot.text, html, htmlText: snapshot.text, constructs: [], removed: [] };
    const delivery = await deliver({ editable, mode: 'fill', payload, setterValue: snapshot.text, accept: (text) => sameText(editable, text, snapshot.text) });
    if (delivery.verified) return true;
  }
  const planned = planText(editable, 'fill', snapshot.text, 'text');
  return (await writeText(editable, 'fill', planned)).verified;
}
