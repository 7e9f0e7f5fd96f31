/**
 * R6 at execution: context is an observation, not a credential. The account a binding was made
 * with must still be the one the page shows now; a signed-out page is never written.
 * Shared by the worker (at resolve) and the content script (at the last moment before a write).
 */
import { failure, success, tetherError, type Outcome } from './errors.ts';

/** What the page shows about sign-in now, as content scripts observe it. */
export interface SignInObservation {
  state: 'signed_in' | 'signed_out' | 'unknown';
  account: string | null;
}

export function checkAccountNow(expected: { origin: string; account: string | null }, seen: SignInObservation): Outcome<void> {
  if (seen.state === 'signed_out') {
    return failure(
      tetherError('not_signed_in', `The page at ${expected.origin} is signed out now. Ask the person to sign in, then resolve again.`, {
        expected: expected.account,
      }),
    );
  }
  if (expected.account !== null && seen.state === 'signed_in' && seen.account !== expected.account) {
    return failure(
      tetherError(
        'account_mismatch',
        `The page shows account "${seen.account ?? '?'}", but the handle was made for "${expected.account}". Resolve again if the new account is right.`,
        { expected: expected.account, seen: seen.account, changed: ['account'] },
      ),
    );
  }
  return success(undefined);
}
