/**
 * R6 at execution: context is an observation, not a credential. The account a binding was made
 * with must still be the one the page shows now; a signed-out page is never written. Unknown
 * state fails closed: a binding made for an account needs the page to show it signed in as that
 * very account, so a page that hides who is signed in cannot carry a write through.
 * Shared by the worker (at resolve) and the content script (at the last moment before a write).
 */
import { failure, success, tetherError, type Outcome } from '../errors.ts';

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
        state: 'signed_out',
      }),
    );
  }
  if (expected.account === null) return success(undefined);
  if (seen.state === 'unknown') {
    return failure(
      tetherError(
        'not_signed_in',
        `Tether cannot see who is signed in at ${expected.origin} now (no account name or sign-out link on the page), and the handle was made for "${expected.account}". Ask the person to check the page, then resolve again.`,
        { expected: expected.account, seen: null, state: 'unknown' },
      ),
    );
  }
  if (seen.account !== expected.account) {
    return failure(
      tetherError(
        'account_mismatch',
        `The page shows account "${seen.account ?? '?'}", but the handle was made for "${expected.account}". Resolve again if the new account is right.`,
        { expected: expected.account, seen: seen.account, changed: ['account'], state: 'signed_in' },
      ),
    );
  }
  return success(undefined);
}
