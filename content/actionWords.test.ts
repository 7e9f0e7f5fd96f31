import { describe, expect, it } from 'vitest';
import { genericActionKind } from './actionWords.ts';

describe('generic action kinds: only an exact save-draft label skips approval', () => {
  it.each([
    ['Save draft', 'save_draft'],
    ['save draft', 'save_draft'],
    ['  SAVE   Draft ', 'save_draft'],
    ['SaveDraft', 'save_draft'],
    ['임시저장', 'save_draft'],
    ['임시 저장', 'save_draft'],
    [' 임시  저장 ', 'save_draft'],
    ['Delete all drafts', 'submit'],
    ['Discard draft', 'submit'],
    ['Drafts', 'submit'],
    ['Save draft and publish', 'publish'],
    ['Save draft & send', 'submit'],
    ['임시저장 삭제', 'submit'],
    ['Save', 'submit'],
    ['Publish', 'publish'],
    ['발행', 'publish'],
    ['Post', 'publish'],
    ['Post comment', 'submit'],
    ['Delete my account', 'submit'],
    ['Send', 'submit'],
    ['', 'submit'],
  ] as const)('%j → %s', (label, kind) => {
    expect(genericActionKind(label)).toBe(kind);
  });
});
