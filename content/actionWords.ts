/**
 * What a button on a site without an adapter does, judged from its label alone. Only an exact
 * save-draft label is a draft save; everything else that is not clearly publishing counts as
 * submitting. A label that merely mentions drafts ("Delete all drafts", "Discard draft") may do
 * anything, so it needs the person's approval like any button Tether cannot name.
 */
import type { ActionKind } from '../shared/page/pageProtocol.ts';

/** Save-draft labels, compared without case or spaces ("Save draft", "SAVE  DRAFT", "임시 저장"). */
const SAVE_DRAFT_LABELS = new Set(['savedraft', '임시저장']);
const PUBLISH_WORDS = /publish|발행|게시|올리기|^post$/i;

function squeezed(label: string): string {
  return label.toLowerCase().replace(/\s+/gu, '');
}

export function genericActionKind(label: string): ActionKind {
  if (SAVE_DRAFT_LABELS.has(squeezed(label))) return 'save_draft';
  if (PUBLISH_WORDS.test(label.trim())) return 'publish';
  // On a site Tether has no adapter for, a button it cannot name may send or publish anything:
  // it is treated as submitting, so it needs the person's approval and must be the last step.
  return 'submit';
}
