/**
 * R6 and R7 at resolve time, pure: after the resolver chose a write target by metadata, what the
 * page shows now decides whether it may be bound.
 */
import { failure, success, tetherError, type Outcome } from '../../shared/errors.ts';
import type { SitePolicy } from '../../shared/model/targetModel.ts';
import type { PageObservation } from '../../shared/page/pageProtocol.ts';

export interface ObservedTargetInput {
  origin: string;
  observation: PageObservation;
  policy: SitePolicy | undefined;
  /** The request says to continue the draft (or continues the program that started it). */
  continueDraft: boolean;
}

export function checkObservedTarget(input: ObservedTargetInput): Outcome<void> {
  const { observation, policy, origin } = input;
  if (observation.signIn.state === 'signed_out') {
    return failure(
      tetherError('not_signed_in', `The page at ${origin} is signed out. Ask the person to sign in there, then resolve again.`, {
        origin,
        via: observation.signIn.via,
      }),
    );
  }
  const expected = policy?.expectedAccount;
  if (expected !== undefined && expected !== '' && observation.signIn.account !== expected) {
    return failure(
      tetherError(
        'account_mismatch',
        `The page is signed in as "${observation.signIn.account ?? 'unknown'}", but the person set "${expected}" for ${origin}. Ask the person to switch accounts.`,
        { expected, seen: observation.signIn.account, origin },
      ),
    );
  }
  if (observation.draft.inProgress && !input.continueDraft) {
    return failure(
      tetherError('draft_in_progress', 'The page has unsaved work in progress. Ask the person, or resolve with continueDraft: true to continue that draft.', {
        reasons: observation.draft.reasons,
        origin,
      }),
    );
  }
  return success(undefined);
}
