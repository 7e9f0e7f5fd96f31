/** The browser's side of approvals: the toolbar badge counts pending ones, open pages refresh. */
import browser from 'webextension-polyfill';
import { createApprovals, type Approvals } from '../core/approvals.ts';
import { notifyPages } from './pageEvents.ts';
import { sessionStore } from '../state/store.ts';

export async function updateBadge(): Promise<void> {
  notifyPages('approval.pending');
  const pending = Object.values(sessionStore.getState().approvals).filter((approval) => approval.decision === 'pending').length;
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
