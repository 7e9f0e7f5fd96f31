/**
 * The person's approval of publish/submit-type steps. A pending approval is kept in the session
 * (the panel lists it, the toolbar badge counts it) and the act waits for the person's decision,
 * or until its time is up (`approval_required`).
 *
 * An approval is for one plan on one page: it carries a digest of the tab, document, plan and time,
 * and is used once. A decision made while no act waited (the worker had been stopped) is found by a
 * retry with the same request id and the same plan — never by another plan under that id.
 */
import browser from 'webextension-polyfill';
import type { Approval, ApprovalRequest } from '../shared/approval.ts';
import { newId } from '../shared/ids.ts';
import { notifyPages } from './pageEvents.ts';
import { sessionStore } from './store.ts';

export type ApprovalDecision = 'approved' | 'denied' | 'timeout';
const DECIDED_KEPT_MS = 10 * 60 * 1000;

const waiters = new Map<string, (decision: 'approved' | 'denied') => void>();

export async function updateBadge(): Promise<void> {
  notifyPages('approval.pending');
  const pending = Object.values(sessionStore.getState().approvals).filter((approval) => approval.decision === 'pending').length;
  await browser.action.setBadgeText({ text: pending > 0 ? String(pending) : '' });
  if (pending > 0) await browser.action.setBadgeBackgroundColor({ color: '#b45309' });
}

function prune(approvals: Record<string, Approval>, now: number): Record<string, Approval> {
  return Object.fromEntries(
    Object.entries(approvals).filter(([, approval]) =>
      approval.decision === 'pending' ? approval.expiresAt > now : approval.createdAt + DECIDED_KEPT_MS > now,
    ),
  );
}

/** A decision already made for this very request and plan (the person answered after an earlier wait). */
function decidedFor(requestId: string, digest: string): Approval | null {
  return (
    Object.values(sessionStore.getState().approvals).find(
      (approval) => approval.requestId === requestId && approval.digest === digest && approval.decision !== 'pending',
    ) ?? null
  );
}

async function forget(id: string): Promise<void> {
  await sessionStore.setState((state) => {
    const { [id]: _used, ...rest } = state.approvals;
    return { approvals: rest };
  });
}

export async function requestApproval(request: ApprovalRequest, timeoutMs: number): Promise<ApprovalDecision> {
  const earlier = decidedFor(request.requestId, request.digest);
  if (earlier) {
    await forget(earlier.id);
    return earlier.decision === 'approved' ? 'approved' : 'denied';
  }
  const now = Date.now();
  const approval: Approval = { ...request, id: newId('ap', 9), createdAt: now, expiresAt: now + timeoutMs, decision: 'pending' };
  await sessionStore.setState((state) => ({ approvals: { ...prune(state.approvals, now), [approval.id]: approval } }));
  await updateBadge();

  // Extension API calls keep the worker alive while it waits for the person.
  const keepAlive = setInterval(() => void browser.runtime.getPlatformInfo(), 20_000);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const decision = await new Promise<ApprovalDecision>((resolve) => {
    waiters.set(approval.id, resolve);
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  clearInterval(keepAlive);
  clearTimeout(timer);
  waiters.delete(approval.id);
  // Used (or expired): an approval never serves a second run.
  await forget(approval.id);
  await updateBadge();
  return decision;
}

export async function decideApproval(id: string, approve: boolean): Promise<boolean> {
  const approval = sessionStore.getState().approvals[id];
  // An approval past its time is no longer waiting, even if a page still shows it (the worker
  // restarted before it was pruned): approving it must not let a later retry run.
  if (!approval || approval.decision !== 'pending' || approval.expiresAt <= Date.now()) return false;
  const decision = approve ? 'approved' : 'denied';
  await sessionStore.setState((state) => ({ approvals: { ...state.approvals, [id]: { ...approval, decision } } }));
  waiters.get(id)?.(decision);
  await updateBadge();
  return true;
}
