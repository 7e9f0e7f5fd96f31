/**
 * What an agent reads of a page's inspection: the fields, actions and text it can act on, without
 * what only Tether uses (page instance, element ids, which adapter read the page unless it did
 * not match, how sign-in was seen), without what context and resolve already said (address,
 * title, the handle's role), and without empty or default values.
 *
 * Through a reference handle nothing can be written or pressed, so its answer has no fields or
 * actions: what can be read (regions, and the fields that hold text, by name) and sign-in.
 */
import type { Role } from '../../shared/model/targetModel.ts';
import type { PageInspection } from '../../shared/page/pageProtocol.ts';
import type { ActionView, FieldView, InspectResult } from '../../shared/agent/results.ts';

const wordsOf = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** A label is worth sending only when it says something the name does not ("Subject" for "title"; not "Publish" for "publish", nor "Post title" for "title"). */
function labelBeyond(name: string, label: string): string | undefined {
  return label.trim() !== '' && !wordsOf(label).includes(wordsOf(name)) ? label : undefined;
}

export function inspectionView(page: PageInspection, role: Role = 'write'): InspectResult {
  const view: InspectResult = {
    signIn: page.signIn.account !== null ? { state: page.signIn.state, account: page.signIn.account } : { state: page.signIn.state },
  };
  if (page.draft.inProgress) view.draft = { reasons: page.draft.reasons };
  const fields = page.fields.map((field) => {
    const item: FieldView = { name: field.name, kind: field.kind, length: field.length, hash: field.hash };
    const label = labelBeyond(field.name, field.label);
    if (label !== undefined) item.label = label;
    if (field.focused) item.focused = true;
    if (field.editedByPerson) item.editedByPerson = true;
    if (field.options !== undefined) item.options = field.options;
    if (field.accept !== undefined) item.accept = field.accept;
    if (field.multiple !== undefined) item.multiple = field.multiple;
    return item;
  });
  const actions = page.actions.map((action) => {
    const item: ActionView = { name: action.name, kind: action.kind };
    const label = labelBeyond(action.name, action.label);
    if (label !== undefined) item.label = label;
    if (action.repeated !== undefined && action.repeated > 0) item.repeated = action.repeated;
    return item;
  });
  const reference = role === 'reference';
  if (fields.length > 0 && !reference) view.fields = fields;
  if (actions.length > 0 && !reference) view.actions = actions;
  // What was read already is in `text`; `readable` names the rest (for a reference, with the fields that hold text).
  const readable = [
    ...page.readable,
    ...(reference ? fields.filter((field) => field.length > 0 && !page.readable.includes(field.name)).map((field) => field.name) : []),
  ].filter((name) => page.text?.[name] === undefined);
  if (readable.length > 0) view.readable = readable;
  if (page.text !== undefined) view.text = page.text;
  if (page.truncated !== undefined && Object.keys(page.truncated).length > 0) view.truncated = page.truncated;
  if (page.fallback !== undefined && Object.keys(page.fallback).length > 0) view.fallback = page.fallback;
  if (page.unknown !== undefined && page.unknown.length > 0) view.unknown = page.unknown;
  if (page.images !== undefined && page.images.length > 0) view.images = page.images;
  // Which model read the page is the journal's, unless the site's adapter did not match: then the
  // agent is told, since names and action kinds come from the generic model.
  if (page.adapterProblem !== undefined) {
    view.adapter = page.adapter;
    view.adapterProblem = page.adapterProblem;
  }
  return view;
}
