/**
 * The WordPress block editor's `core/block-editor` store, reached through the worker's main-world
 * call (background/adapters/blockEditorMain.ts, shared/page/blockEditorCall.ts): what the photos
 * (media.ts) and a fill (`fillThroughStore`, the family's `block-store` path) share.
 *
 * A fill goes through the store because a paste cannot be aimed at one block: where the post holds
 * one block and it is not already focused, the selection Tether places does not hold (its RichText
 * takes focus and puts the caret back where the store had it, the end), so the editor's select-all
 * selects nothing and the paste lands after the old text (observed 2026-12-01, docs/editors.md).
 * The store is told directly instead: the editor's own `pasteHandler` makes the blocks of Tether's
 * HTML, as its clipboard handler does on a paste, and `replaceBlocks` puts them in place of every
 * top-level block (into an editor with none yet, `insertBlocks`), one undo level, as that paste
 * over every block does — only if the store's
 * fingerprint is still the one read just before (checked in the page in the same task as the
 * write). What the page answers is its word only: the act module checks the store against the
 * rendered blocks before and after, and deliver.ts verifies both the store's text and the page's.
 */
import { blockEditorAnswerSchema, type BlockEditorAnswer, type BlockEditorCall, type ListedBlock } from '../../../shared/page/blockEditorCall.ts';
import { callWorker } from '../../act/actHost.ts';
import { readEditable, type Editable } from '../../editables.ts';
import type { StoreFillOutcome } from '../families/family.ts';
import { settle } from '../settle.ts';

type Body = BlockEditorCall extends infer C ? (C extends unknown ? Omit<C, 'editor'> : never) : never;

export async function callStore(request: Body, timeoutMs = 20_000): Promise<BlockEditorAnswer> {
  const parsed = blockEditorAnswerSchema.safeParse(await callWorker({ ...request, editor: 'wordpress-block-editor' }, timeoutMs));
  return parsed.success ? parsed.data : { ok: false, reason: 'invalid', message: 'The worker answered in an unexpected shape.' };
}

/** The rendered top-level blocks' client ids, in order (BlockList renders each as `[data-block]`). */
export function renderedTop(element: HTMLElement): string[] {
  const root = element.querySelector('.is-root-container') ?? element;
  return Array.from(root.children, (child) => child.getAttribute('data-block') ?? '').filter(Boolean);
}

export const topOf = (blocks: ListedBlock[]) => blocks.filter((block) => block.parent === '').map((block) => block.clientId);
export const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((id, index) => id === b[index]);

const failed = (answer: BlockEditorAnswer) => (answer.ok ? '' : `${answer.reason}${answer.message ? `: ${answer.message}` : ''}`);

/**
 * Every top-level block replaced by the blocks the editor makes of `html` (and `text`, the paste's
 * plain flavour); '' and '': a clear (one empty paragraph). Resolves with the store's text once the
 * page renders the store's new blocks, or says why nothing (or not that) was written.
 */
export async function fillThroughStore(editable: Editable, html: string, text: string): Promise<StoreFillOutcome> {
  const read = await callStore({ op: 'read' });
  if (!read.ok || read.fingerprint === undefined)
    return { written: false, problem: `the block editor’s store cannot be reached (${failed(read) || 'no fingerprint'})` };
  const top = topOf(read.blocks);
  // An empty post: the store holds no block, and the editor shows one empty default paragraph that is not in it yet (observed).
  const rendered = renderedTop(editable.element);
  const empty = top.length === 0 && rendered.length <= 1 && (read.text ?? '') === '' && readEditable(editable).trim() === '';
  if (!empty && !sameList(top, rendered))
    return { written: false, problem: 'the block editor’s store does not read as what the page shows; Tether writes neither way' };
  const answer = await callStore({ op: 'replace', html, text, replace: top, expect: read.fingerprint });
  if (!answer.ok) {
    if (answer.reason === 'changed') return { written: false, problem: 'the post changed as Tether was about to write it; nothing was written' };
    // The page may have written before it failed: the read-back says what the store holds.
    const now = await callStore({ op: 'read' });
    const untouched = now.ok && now.fingerprint === read.fingerprint;
    return untouched
      ? { written: false, problem: `the block editor did not take the text (${failed(answer)})` }
      : { written: true, problem: `the block editor answered ${failed(answer)}`, storeText: now.ok ? (now.text ?? null) : null };
  }
  // The page renders what the store now holds, block for block (React renders each from it).
  const after = topOf(answer.blocks);
  const shown = await settle([editable.element], () => sameList(after, renderedTop(editable.element)), { deadlineMs: 5000 });
  if (!shown) return { written: true, problem: 'the page does not show the blocks the store says it holds', storeText: answer.text ?? null };
  return { written: true, storeText: answer.text ?? null };
}
