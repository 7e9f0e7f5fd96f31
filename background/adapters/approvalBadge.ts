/**
 * The browser's side of approvals and of agents' questions: the toolbar badge counts what waits
 * for the person (both), open pages refresh.
 */
import browser from 'webextension-polyfill';
import { createApprovals, type Approvals } from '../core/approvals.ts';
import { createQuestions, type Questions } from '../core/questions.ts';
import { notifyPages } from './pageEvents.ts';
import { sessionStore } from '../state/store.ts';

export async function updateBadge(): Promise<void> {
  notifyPages('approval.pending');
  const { approvals, questions } = sessionStore.getState();
  const pending =
    Object.values(approvals).filter((approval) => approval.decision === 'pending').length +
    Object.values(questions).filter((question) => question.decision === 'pending').length;
  await browser.action.setBadgeText({ text: pending > 0 ? String(pending) : '' });
  if (pending > 0) await browser.action.setBadgeBackgroundColor({ color: '#b45309' });
}

/** The worker's approvals: kept in the session store, counted on the badge. */
export function browserApprovals(): Approvals {
  return createApprovals({
    session: sessionStore,
    changed: updateBadge,
    keepAlive: () => void browser.runtime.getPlatformInfo(),
    clock: () => Date.now(),
  });
}

/** The worker's questions for the person: kept in the session store, counted on the badge. */
export function browserQuestions(): Questions {
  return createQuestions({
    session: sessionStore,
    changed: updateBadge,
    keepAlive: () => void browser.runtime.getPlatformInfo(),
    clock: () => Date.now(),
  });
}
