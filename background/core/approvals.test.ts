import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { createApprovals, type ApprovalRequest } from './approvals.ts';
import type { Approval } from '../../shared/model/approval.ts';
import type { SessionState } from '../state/store.ts';

const REQUEST: ApprovalRequest = {
  requestId: 'rq_1',
  digest: 'digest-a',
  workspaceId: 'ws_test',
  tabId: 1,
  site: 'blog.example',
  title: 'Post',
  account: 'alice',
  summary: { en: 'Publish', ko: '게시' },
  steps: [{ op: 'click', target: 'publish', preview: 'Publish' }],
};

function setup(now = 1_000_000) {
  const session = createStore<SessionState>()(() => ({ approvals: {}, seen: {}, departures: {}, holds: {}, questions: {}, agentIds: {} }));
  const clock = { now };
  let changes = 0;
  const approvals = createApprovals({ session, changed: async () => void (changes += 1), keepAlive: () => undefined, clock: () => clock.now });
  const list = () => Object.values(session.getState().approvals);
  const waitForPending = async () => {
    await expect.poll(() => list().find((approval) => approval.decision === 'pending')).toBeDefined();
    return list().find((approval) => approval.decision === 'pending') as Approval;
  };
  return { session, clock, approvals, list, waitForPending, changes: () => changes };
}

function stored(extra: Partial<Approval>): Approval {
  return { ...REQUEST, id: 'ap_earlier', createdAt: 999_000, expiresAt: 1_119_000, decision: 'approved', ...extra };
}

describe('approvals', () => {
  it('an approval waits as pending (the badge is told) until the person decides; then it is used and gone', async () => {
    const { approvals, list, waitForPending, changes } = setup();
    const deciding = approvals.request(REQUEST, 60_000);
    const waiting = await waitForPending();
    expect(waiting).toMatchObject({ ...REQUEST, createdAt: 1_000_000, expiresAt: 1_060_000 });
    expect(changes()).toBe(1);
    expect(await approvals.decide(waiting.id, true)).toBe(true);
    expect(await deciding).toBe('approved');
    expect(list()).toEqual([]);
    // A second decision on the same approval changes nothing.
    expect(await approvals.decide(waiting.id, false)).toBe(false);
  });

  it.each([
    [true, 'approved'],
    [false, 'denied'],
  ] as const)('decide(%s) → %s', async (approve, decision) => {
    const { approvals, waitForPending } = setup();
    const deciding = approvals.request(REQUEST, 60_000);
    await approvals.decide((await waitForPending()).id, approve);
    expect(await deciding).toBe(decision);
  });

  it('an approval past its expiry (left by a stopped worker, still shown by a page) cannot be decided, so no retry runs on it', async () => {
    const { session, clock, approvals, list } = setup();
    const left = stored({ decision: 'pending', expiresAt: 1_060_000 });
    session.setState({ approvals: { [left.id]: left } });
    clock.now = 1_060_000;
    expect(await approvals.decide(left.id, true)).toBe(false);
    expect(list()).toEqual([left]);
  });

  it('nobody decides in time → timeout, and the approval is gone', async () => {
    const { approvals, list } = setup();
    expect(await approvals.request(REQUEST, 10)).toBe('timeout');
    expect(list()).toEqual([]);
  });

  it.each<{ name: string; earlier: Partial<Approval>; request: Partial<ApprovalRequest>; reused: 'approved' | 'denied' | null }>([
    { name: 'approved for this request and plan → approved', earlier: {}, request: {}, reused: 'approved' },
    { name: 'denied for this request and plan → denied', earlier: { decision: 'denied' }, request: {}, reused: 'denied' },
    { name: 'approved for another plan (digest) under this request id → not used', earlier: {}, request: { digest: 'digest-b' }, reused: null },
    { name: 'approved for another request with this plan → not used', earlier: {}, request: { requestId: 'rq_2' }, reused: null },
    { name: 'still pending (asked by an earlier wait) → not a decision', earlier: { decision: 'pending' }, request: {}, reused: null },
  ])('a decision made while nobody waited: $name', async ({ earlier, request, reused }) => {
    const { session, approvals, list } = setup();
    await session.setState({ approvals: { ap_earlier: stored(earlier) } });
    const decision = await approvals.request({ ...REQUEST, ...request }, 10);
    expect(decision).toBe(reused ?? 'timeout');
    // Used once: a decision that served is gone; one that did not stays for its own plan.
    expect(list().map((approval) => approval.id)).toEqual(reused ? [] : ['ap_earlier']);
  });

  it('an approved decision serves one run: the next request for the same plan asks again', async () => {
    const { session, approvals, waitForPending } = setup();
    await session.setState({ approvals: { ap_earlier: stored({}) } });
    expect(await approvals.request(REQUEST, 60_000)).toBe('approved');
    const again = approvals.request(REQUEST, 60_000);
    const asked = await waitForPending();
    expect(asked.id).not.toBe('ap_earlier');
    await approvals.decide(asked.id, false);
    expect(await again).toBe('denied');
  });

  it('a new approval drops expired pending ones and decisions kept past ten minutes', async () => {
    const { session, approvals, list, waitForPending } = setup();
    await session.setState({
      approvals: {
        ap_expired: stored({ id: 'ap_expired', decision: 'pending', requestId: 'rq_old', expiresAt: 999_999 }),
        ap_stale: stored({ id: 'ap_stale', requestId: 'rq_old', createdAt: 1_000_000 - 10 * 60 * 1000 }),
        ap_recent: stored({ id: 'ap_recent', requestId: 'rq_old', createdAt: 990_000 }),
      },
    });
    const deciding = approvals.request(REQUEST, 60_000);
    const asked = await waitForPending();
    expect(
      list()
        .map((approval) => approval.id)
        .sort(),
    ).toEqual([asked.id, 'ap_recent'].sort());
    await approvals.decide(asked.id, true);
    await deciding;
  });
});
