/**
 * The person's approval of publish/submit-type steps. A pending approval is kept in the session
 * (the panel lists it, the toolbar badge counts it) and the act waits for the person's decision,
 * or until its time is up (`approval_required`).
 *
 * An approval is for one plan on one page: it carries a digest of the tab, document, plan and time,
 * and is used once. A decision made while no act waited (the worker had been stopped) is found by a
 * retry with the same request id and the same plan — never by another plan under that id.
 *
 * The browser's part (the badge, keeping the worker alive while it waits) comes in as `ApprovalDeps`
 * (approvalBadge.ts), so the rules run in unit tests too.
 */
import type { Approval, ApprovalRequest } from '../../shared/model/approval.ts';
import { newId } from '../../shared/ids.ts';
import type { SessionState } from '../state/store.ts';
import type { StateAccess } from './contracts.ts';

export type ApprovalDecision = 'approved' | 'denied' | 'timeout';
export type { ApprovalRequest };
const DECIDED_KEPT_MS = 10 * 60 * 1000;
const KEEP_ALIVE_EVERY_MS = 20_000;

export interface ApprovalDeps {
  session: StateAccess<SessionState>;
  /** The pending approvals changed: the badge and open pages follow. */
  changed(): Promise<void>;
  /** Called while an act waits, so the browser does not stop the worker meanwhile. */
  keepAlive(): void;
  clock(): number;
}

export interface Approvals {
  request(request: ApprovalRequest, timeoutMs: number): Promise<ApprovalDecision>;
  decide(id: string, approve: boolean): Promise<boolean>;
}

function prune(approvals: Record<string, Approval>, now: number): Record<string, Approval> {
  return Object.fromEntries(
    Object.entries(approvals).filter(([, approval]) =>
      approval.decision === 'pending' ? approval.expiresAt > now : approval.createdAt + DECIDED_KEPT_MS > now,
    ),
  );
}

export function createApprovals(deps: ApprovalDeps): Approvals {
  const { session } = deps;
  const waiters = new Map<string, (decision: 'approved' | 'denied') => void>();

  /** A decision already made for this very request and plan (the person answered after an earlier wait). */
  const decidedFor = (requestId: string, digest: string): Approval | null =>
    Object.values(session.getState().approvals).find(
      (approval) => approval.requestId === requestId && approval.digest === digest && approval.decision !== 'pending',
    ) ?? null;

  const forget = async (id: string): Promise<void> => {
    await session.setState((state) => {
      const { [id]: _used, ...rest } = state.approvals;
      return { approvals: rest };
    });
  };

  return {
    async request(request, timeoutMs) {
      const earlier = decidedFor(request.requestId, request.digest);
      if (earlier) {
        await forget(earlier.id);
        return earlier.decision === 'approved' ? 'approved' : 'denied';
      }
      const now = deps.clock();
      const approval: Approval = { ...request, id: newId('ap', 9), createdAt: now, expiresAt: now + timeoutMs, decision: 'pending' };
      await session.setState((state) => ({ approvals: { ...prune(state.approvals, now), [approval.id]: approval } }));
      await deps.changed();

      // Extension API calls keep the worker alive while it waits for the person.
      const keepAlive = setInterval(() => deps.keepAlive(), KEEP_ALIVE_EVERY_MS);
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
      await deps.changed();
      return decision;
    },

    async decide(id, approve) {
      const approval = session.getState().approvals[id];
      // An approval past its time is no longer waiting, even if a page still shows it (the worker
      // restarted before it was pruned): approving it must not let a later retry run.
      if (!approval || approval.decision !== 'pending' || approval.expiresAt <= deps.clock()) return false;
      const decision = approve ? 'approved' : 'denied';
      await session.setState((state) => ({ approvals: { ...state.approvals, [id]: { ...approval, decision } } }));
      waiters.get(id)?.(decision);
      await deps.changed();
      return true;
    },
  };
}
