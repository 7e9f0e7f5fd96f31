import { describe, expect, it } from 'vitest';
import { failure, success, tetherError, type Outcome } from '../../shared/errors.ts';
import type { PageActResult } from '../../shared/page/pageProtocol.ts';
import type { ActArgs, Plan } from '../../shared/agent/agentProtocol.ts';
import type { ActResult } from '../../shared/agent/results.ts';
import { binding, PROFILE, tab, workspace } from '../../shared/testing/fixtures.ts';
import type { ActRecord } from '../state/actRecords.ts';
import { RequestTrace } from '../core/requestTrace.ts';
import type { Approval } from '../../shared/model/approval.ts';
import { fakeToolContext, type FakeToolContext } from '../testing/fakeToolContext.ts';
import { actTool } from './actTool.ts';

const BLOG = 'https://blog.example';
const blogTab = tab(1, `${BLOG}/write`, 'Post');
const cafeTab = tab(2, 'https://cafe.example/notes', 'Notes');
const FILL: Plan = { steps: [{ op: 'fill', field: 'body', text: 'Hello', expect: { text: '' } }] };
const PUBLISH: Plan = {
  steps: [
    { op: 'fill', field: 'body', text: 'Hello', expect: { text: '' } },
    { op: 'click', action: 'publish' },
  ],
};
const DAY = 24 * 60 * 60 * 1000;

async function setup(options: { publishWithoutApproval?: boolean; role?: 'write' | 'reference' } = {}) {
  const space = workspace([blogTab, cafeTab], [BLOG]);
  if (options.publishWithoutApproval) space.sites[BLOG] = { writable: true, publishWithoutApproval: true };
  const context = fakeToolContext({ workspaces: [space], tabs: [blogTab, cafeTab] });
  const handle =
    options.role === 'reference'
      ? await context.handles.mint(binding(blogTab, { role: 'reference' }), 'rq_resolve', context.now, { body: 'el-1-body' })
      : await context.mintWrite(binding(blogTab), { body: 'el-1-body' });
  const act = (args: Partial<ActArgs> = {}) => {
    const full: ActArgs = { profile: PROFILE, workspace: 'ws_test', handle, plan: FILL, ...args };
    const trace = new RequestTrace('act', 'agent', full, undefined);
    return { trace, answer: actTool.handler(full, trace, context) };
  };
  return { context, handle, act };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/** The act requests that reached the page, dry runs apart from runs. */
function acts(context: FakeToolContext) {
  const all = context.asked.flatMap(({ request }) => (request.type === 'act' ? [request] : []));
  return { dry: all.filter((request) => request.dryRun), runs: all.filter((request) => !request.dryRun) };
}

function pending(context: FakeToolContext): Approval | undefined {
  return Object.values(context.session.getState().approvals).find((approval) => approval.decision === 'pending');
}

const PAGE_DONE: PageActResult = {
  ok: true,
  dryRun: false,
  steps: [{ step: 0, op: 'fill', target: 'body', verified: true }],
  clicks: [],
  url: `${BLOG}/post/1`,
};
const EARLIER: Outcome<ActResult> = success({ requestId: 'rq_again', steps: [{ step: 0, verified: true }], url: `${BLOG}/post/0`, done: 'earlier' });

describe('act: a request id seen before (replay)', () => {
  const record = (extra: Partial<ActRecord>): ActRecord => ({
    requestId: 'rq_again',
    handle: '',
    tabId: 1,
    documentId: 'doc-1',
    state: 'done',
    startedAt: 0,
    answer: null,
    ...extra,
  });

  it.each<{
    name: string;
    prior: (handle: string, now: number) => ActRecord;
    status?: Outcome<{ state: 'unknown' | 'running' | 'done'; result?: PageActResult }>;
    expected: (answer: Outcome<ActResult>) => void;
    runsAgain: boolean;
    answeredBefore: boolean;
  }>([
    {
      name: 'done → the answer given before, nothing asked of the page',
      prior: (handle) => record({ handle, answer: EARLIER }),
      expected: (answer) => expect(answer).toEqual(EARLIER),
      runsAgain: false,
      answeredBefore: true,
    },
    {
      name: 'used with another handle → invalid_request',
      prior: () => record({ handle: 'th_another', answer: EARLIER }),
      expected: (answer) => expect(!answer.ok && answer.error.code).toBe('invalid_request'),
      runsAgain: false,
      answeredBefore: false,
    },
    {
      name: 'running, and the page says it finished → the page’s answer',
      prior: (handle, now) => record({ handle, state: 'running', startedAt: now - 60_000 }),
      status: success({ state: 'done', result: PAGE_DONE }),
      expected: (answer) => expect(answer.ok && 'url' in answer.value && answer.value.url).toBe(`${BLOG}/post/1`),
      runsAgain: false,
      answeredBefore: true,
    },
    {
      name: 'running, and the page says it still runs → target_busy',
      prior: (handle, now) => record({ handle, state: 'running', startedAt: now - 60_000 }),
      status: success({ state: 'running' }),
      expected: (answer) => expect(!answer.ok && answer.error.code).toBe('target_busy'),
      runsAgain: false,
      answeredBefore: true,
    },
    {
      name: 'running a moment ago, unknown to the page → target_busy (it may still arrive)',
      prior: (handle, now) => record({ handle, state: 'running', startedAt: now - 5_000 }),
      status: success({ state: 'unknown' }),
      expected: (answer) => expect(!answer.ok && answer.error.code).toBe('target_busy'),
      runsAgain: false,
      answeredBefore: true,
    },
    {
      name: 'running long ago, unknown to the page → taken as never run: it runs',
      prior: (handle, now) => record({ handle, state: 'running', startedAt: now - 60_000 }),
      status: success({ state: 'unknown' }),
      expected: (answer) => expect(answer.ok && 'done' in answer.value).toBe(true),
      runsAgain: true,
      answeredBefore: false,
    },
    {
      name: 'running long ago, the page cannot be asked → taken as never run (the run itself is refused by the page)',
      prior: (handle, now) => record({ handle, state: 'running', startedAt: now - 60_000 }),
      status: failure(tetherError('context_changed', 'gone')),
      expected: (answer) => expect(answer.ok).toBe(true),
      runsAgain: true,
      answeredBefore: false,
    },
  ])('$name', async ({ prior, status, expected, runsAgain, answeredBefore }) => {
    const { context, handle, act } = await setup();
    await context.actRecords.put('rq_again', prior(handle, context.now));
    if (status) context.page.actStatus = () => status;
    const { answer, trace } = act({ requestId: 'rq_again' });
    expected(await answer);
    expect(acts(context).runs).toHaveLength(runsAgain ? 1 : 0);
    // An answer from the record or the page is journaled as a replay; a run again as the run it is.
    if (answeredBefore) expect(trace.decision).toEqual({ replayOf: 'rq_again' });
    else expect(trace.decision).not.toEqual({ replayOf: 'rq_again' });
  });

  it('the same request id twice runs the plan once; the second answer is the first', async () => {
    const { context, act } = await setup();
    const first = await act({ requestId: 'rq_twice' }).answer;
    const second = await act({ requestId: 'rq_twice' }).answer;
    expect(first.ok).toBe(true);
    expect(second).toEqual(first);
    expect(acts(context).runs).toHaveLength(1);
    expect(context.actRecordMap.get('rq_twice')).toMatchObject({ state: 'done', answer: first });
  });

  it('a page that refused is refused again on a retry, without asking it twice', async () => {
    const { context, act } = await setup();
    context.page.act = () => success({ ok: false, error: tetherError('field_changed', 'changed'), problems: [], ran: [], rolledBack: [] });
    const first = await act({ requestId: 'rq_refused' }).answer;
    expect(!first.ok && first.error.code).toBe('field_changed');
    expect(await act({ requestId: 'rq_refused' }).answer).toEqual(first);
    expect(acts(context).runs).toHaveLength(1);
  });

  it('without a request id nothing is looked up: each call runs', async () => {
    const { context, act } = await setup();
    await act().answer;
    await act().answer;
    expect(acts(context).runs).toHaveLength(2);
    expect(new Set(acts(context).runs.map((run) => run.requestId)).size).toBe(2);
  });
});

describe('act: a plan kept for later (at)', () => {
  it('a time within 7 days → scheduled under a program, recorded, and the same answer on a retry', async () => {
    const { context, act } = await setup();
    const at = new Date(context.now + DAY).toISOString();
    const first = await act({ requestId: 'rq_later', at }).answer;
    expect(first.ok && 'scheduled' in first.value && first.value.scheduled.at).toBe(at);
    expect(context.scheduled).toHaveLength(1);
    expect(context.scheduled[0]).toMatchObject({ requestId: 'rq_later', dueAt: context.now + DAY, mayPublish: false, pins: [] });
    const program = Object.values(context.local.getState().programs)[0];
    expect(program).toMatchObject({ id: context.scheduled[0]?.programId, status: 'scheduled', dueAt: context.now + DAY });
    // Checked against the page now (a dry run), run later: nothing written yet.
    expect(acts(context)).toMatchObject({ dry: [{ requestId: 'rq_later' }], runs: [] });
    expect(context.actRecordMap.get('rq_later')).toMatchObject({ state: 'done', answer: first });

    expect(await act({ requestId: 'rq_later', at }).answer).toEqual(first);
    expect(context.scheduled).toHaveLength(1);
  });

  it('a time less than a minute past runs a second from now', async () => {
    const { context, act } = await setup();
    const answer = await act({ at: new Date(context.now - 30_000).toISOString() }).answer;
    expect(answer.ok).toBe(true);
    expect(context.scheduled[0]?.dueAt).toBe(context.now + 1000);
  });

  it('a plan that publishes is approved before it is kept, and kept as approved', async () => {
    const { context, act } = await setup();
    const { answer } = act({ plan: PUBLISH, at: new Date(context.now + DAY).toISOString() });
    await expect.poll(() => pending(context)).toBeDefined();
    expect(context.scheduled).toHaveLength(0);
    await context.approvals.decide(pending(context)?.id ?? '', true);
    expect((await answer).ok).toBe(true);
    expect(context.scheduled[0]).toMatchObject({ mayPublish: true, pins: [{ step: 1, element: 'el-1', label: 'publish' }] });
  });

  it.each<{ name: string; at: (now: number) => number; code: string; role?: 'reference'; navigated?: boolean }>([
    { name: 'more than 7 days ahead → invalid_request', at: (now) => now + 8 * DAY, code: 'invalid_request' },
    { name: 'more than a minute past → invalid_request', at: (now) => now - 5 * 60_000, code: 'invalid_request' },
    { name: 'through a reference handle → read_only_target', at: (now) => now + DAY, code: 'read_only_target', role: 'reference' },
    { name: 'on a tab that navigated since → context_changed', at: (now) => now + DAY, code: 'context_changed', navigated: true },
  ])('refused: $name; nothing kept, nothing written', async ({ at, code, role, navigated }) => {
    const { context, act } = await setup(role ? { role } : {});
    if (navigated) context.tabList = [{ ...blogTab, url: `${BLOG}/elsewhere`, documentId: 'doc-9' }, cafeTab];
    const answer = await act({ requestId: 'rq_refused', at: new Date(at(context.now)).toISOString() }).answer;
    expect(!answer.ok && answer.error.code).toBe(code);
    expect(context.scheduled).toHaveLength(0);
    expect(context.local.getState().programs).toEqual({});
    expect(acts(context).runs).toHaveLength(0);
    expect(context.actRecordMap.has('rq_refused')).toBe(false);
  });
});

describe('act: approval of publish-type steps', () => {
  it('needs approval → a pending approval the person sees (site, account, the button’s own label); approved → runs once, approved', async () => {
    const { context, act } = await setup();
    const { answer } = act({ plan: PUBLISH, requestId: 'rq_pub' });
    await expect.poll(() => pending(context)).toBeDefined();
    expect(pending(context)).toMatchObject({
      requestId: 'rq_pub',
      site: 'blog.example',
      account: 'alice',
      steps: [{ op: 'fill' }, { op: 'click', preview: 'publish' }],
    });
    expect(acts(context).runs).toHaveLength(0);
    await context.approvals.decide(pending(context)?.id ?? '', true);
    const done = await answer;
    expect(done.ok).toBe(true);
    expect(acts(context).runs).toMatchObject([{ approved: true, pins: [{ step: 1, element: 'el-1' }] }]);
    // Used: nothing left to approve again.
    expect(context.session.getState().approvals).toEqual({});
  });

  it('denied → approval_denied, nothing written', async () => {
    const { context, act } = await setup();
    const { answer } = act({ plan: PUBLISH });
    await expect.poll(() => pending(context)).toBeDefined();
    await context.approvals.decide(pending(context)?.id ?? '', false);
    const refused = await answer;
    expect(!refused.ok && refused.error.code).toBe('approval_denied');
    expect(acts(context).runs).toHaveLength(0);
  });

  it('expired (nobody decided in time) → approval_required, and the approval is gone', async () => {
    const { context, act } = await setup();
    // Called past the request check, so a fraction of a second is allowed here: the rule, not the parser, is under test.
    const refused = await act({ plan: PUBLISH, approvalTimeoutSeconds: 0.02 }).answer;
    expect(!refused.ok && refused.error.code).toBe('approval_required');
    expect(context.session.getState().approvals).toEqual({});
    expect(acts(context).runs).toHaveLength(0);
  });

  it('the site allows publishing without asking → runs at once, approved, no approval asked', async () => {
    const { context, act } = await setup({ publishWithoutApproval: true });
    expect((await act({ plan: PUBLISH }).answer).ok).toBe(true);
    expect(context.session.getState().approvals).toEqual({});
    expect(acts(context).runs).toMatchObject([{ approved: true }]);
  });

  it('a plan that presses nothing needs no approval and no dry run', async () => {
    const { context, act } = await setup();
    expect((await act({ plan: FILL }).answer).ok).toBe(true);
    expect(acts(context)).toMatchObject({ dry: [], runs: [{ approved: false, pins: [] }] });
  });

  /** The person approved after the act stopped waiting (the worker had been stopped): the decision stays in the session. */
  async function decidedWhileNobodyWaited(context: FakeToolContext, act: Setup['act'], plan: Plan): Promise<Approval> {
    const { answer } = act({ plan, requestId: 'rq_pub', approvalTimeoutSeconds: 0.05 });
    await expect.poll(() => pending(context)).toBeDefined();
    const asked = pending(context) as Approval;
    const refused = await answer;
    expect(!refused.ok && refused.error.code).toBe('approval_required');
    const approved: Approval = { ...asked, decision: 'approved' };
    await context.session.setState((state) => ({ approvals: { ...state.approvals, [approved.id]: approved } }));
    return approved;
  }

  it('a retry with the same request id and plan uses the decision made meanwhile, once', async () => {
    const { context, act } = await setup();
    await decidedWhileNobodyWaited(context, act, PUBLISH);
    const done = await act({ plan: PUBLISH, requestId: 'rq_pub' }).answer;
    expect(done.ok).toBe(true);
    expect(acts(context).runs).toMatchObject([{ requestId: 'rq_pub', approved: true }]);
    expect(context.session.getState().approvals).toEqual({});
  });

  it('another plan under that request id does not get that decision: asked again, refused when nobody answers', async () => {
    const { context, act } = await setup();
    const approved = await decidedWhileNobodyWaited(context, act, PUBLISH);
    const other: Plan = {
      steps: [
        { op: 'fill', field: 'body', text: 'Something else', expect: { text: '' } },
        { op: 'click', action: 'publish' },
      ],
    };
    const { answer } = act({ plan: other, requestId: 'rq_pub', approvalTimeoutSeconds: 0.05 });
    await expect.poll(() => pending(context)).toBeDefined();
    expect(pending(context)?.digest).not.toBe(approved.digest);
    const refused = await answer;
    expect(!refused.ok && refused.error.code).toBe('approval_required');
    expect(acts(context).runs).toHaveLength(0);
    // The decision for the first plan is still there for that plan.
    expect(context.session.getState().approvals[approved.id]).toEqual(approved);
  });
});

describe('act: what is checked before anything', () => {
  it.each<{ name: string; change: (made: Setup) => Partial<ActArgs>; code: string }>([
    { name: 'unknown workspace → unknown_scope', change: () => ({ workspace: 'ws_other' }), code: 'unknown_scope' },
    { name: 'unknown handle → invalid_handle', change: () => ({ handle: 'th_AAAAAAAAAAAAAAAAAAAAAAAA' }), code: 'invalid_handle' },
    { name: 'no plan → missing_context', change: () => ({ plan: undefined }), code: 'missing_context' },
    {
      name: 'the site no longer writable → read_only_target',
      change: ({ context }) => {
        const space = context.local.getState().workspaces.ws_test;
        if (space)
          void context.local.setState({
            workspaces: { ws_test: { ...space, sites: { ...space.sites, [BLOG]: { writable: false, publishWithoutApproval: false } } } },
          });
        return {};
      },
      code: 'read_only_target',
    },
    {
      name: 'another act running on the tab → target_busy',
      change: ({ context }) => {
        context.reservations.reserve(1, 'rq_other');
        return {};
      },
      code: 'target_busy',
    },
  ])('$name; the page is not asked', async ({ change, code }) => {
    const made = await setup();
    const answer = await made.act(change(made)).answer;
    expect(!answer.ok && answer.error.code).toBe(code);
    expect(acts(made.context).runs).toHaveLength(0);
  });

  it('the tab is free again after an act, whatever its outcome', async () => {
    const { context, act } = await setup();
    context.page.act = () => failure(tetherError('timeout', 'The page did not answer.'));
    await act().answer;
    expect(context.reservations.reserved()).toEqual([]);
  });
});
