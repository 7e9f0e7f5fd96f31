import { describe, expect, it } from 'vitest';
import type { PageObservation } from '../../shared/page/pageProtocol.ts';
import { checkObservedTarget } from './checkObservedTarget.ts';

function seen(signIn: PageObservation['signIn'], draft: PageObservation['draft'] = { inProgress: false, reasons: [] }): PageObservation {
  return { url: 'https://blog.example/write', title: 'New post', pageInstance: 'pg', adapter: 'test', signIn, draft, fieldElements: {} };
}

const alice = { state: 'signed_in', account: 'alice', via: 'adapter:test' } as const;

describe('checkObservedTarget (R6, R7 at resolve)', () => {
  it.each([
    { name: 'signed in, nothing in progress → ok', observation: seen(alice), expected: undefined, continueDraft: false, code: null },
    {
      name: 'signed out → not_signed_in',
      observation: seen({ state: 'signed_out', account: null, via: 'adapter:test' }),
      expected: undefined,
      continueDraft: false,
      code: 'not_signed_in',
    },
    {
      name: 'another account than the person set → account_mismatch',
      observation: seen(alice),
      expected: 'bob',
      continueDraft: false,
      code: 'account_mismatch',
    },
    { name: 'the account the person set → ok', observation: seen(alice), expected: 'alice', continueDraft: false, code: null },
    {
      name: 'unsaved text of the person’s → draft_in_progress',
      observation: seen(alice, { inProgress: true, reasons: ['person-typed:body'] }),
      expected: undefined,
      continueDraft: false,
      code: 'draft_in_progress',
    },
    {
      name: 'a draft, and the request says to continue it → ok',
      observation: seen(alice, { inProgress: true, reasons: ['autosave-banner'] }),
      expected: undefined,
      continueDraft: true,
      code: null,
    },
  ])('$name', ({ observation, expected, continueDraft, code }) => {
    const outcome = checkObservedTarget({
      origin: 'https://blog.example',
      observation,
      policy: { writable: true, publishWithoutApproval: false, ...(expected ? { expectedAccount: expected } : {}) },
      continueDraft,
    });
    expect(outcome.ok ? null : outcome.error.code).toBe(code);
  });
});
