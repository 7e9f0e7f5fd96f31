import { describe, expect, it } from 'vitest';
import { failure, success, tetherError } from '../../shared/errors.ts';
import type { PageObservation } from '../../shared/page/pageProtocol.ts';
import type { ResolveArgs } from '../../shared/agent/agentProtocol.ts';
import { binding, program, PROFILE, tab, workspace } from '../../shared/testing/fixtures.ts';
import { RequestTrace } from '../core/requestTrace.ts';
import { DEFAULT_PAGE, fakeToolContext, type FakeToolContext } from '../testing/fakeToolContext.ts';
import { resolveTool } from './resolveTool.ts';

const BLOG = 'https://blog.example';
const blogTab = tab(1, `${BLOG}/write`, 'Post');
const cafeTab = tab(2, 'https://cafe.example/notes', 'Weekly notes');
const otherBlogTab = tab(3, `${BLOG}/drafts`, 'Drafts');

function setup(tabs = [blogTab, cafeTab]) {
  const space = workspace(tabs, [BLOG]);
  const context = fakeToolContext({ workspaces: [space, { ...space, id: 'ws_private', shared: false }, { ...space, id: 'ws_other' }], tabs });
  return context;
}

function resolve(context: FakeToolContext, args: Partial<ResolveArgs>) {
  const full: ResolveArgs = { profile: PROFILE, workspace: 'ws_test', ...args };
  return resolveTool.handler(full, new RequestTrace('resolve', 'agent', full, undefined), context);
}

/** A page observation like the default one, changed. */
function observed(change: (observation: PageObservation) => PageObservation) {
  return (request: { type: 'observe' }, tabId: number) => {
    const base = DEFAULT_PAGE.observe(request, tabId);
    return base.ok ? success(change(base.value)) : base;
  };
}

describe('resolve: every refusal, by the step that gives it; a refusal mints nothing', () => {
  it.each<{
    name: string;
    code: string;
    args: Partial<ResolveArgs>;
    arrange?: (context: FakeToolContext) => Promise<Partial<ResolveArgs> | undefined> | Partial<ResolveArgs> | undefined;
    tabs?: (typeof blogTab)[];
  }>([
    // The scope
    { name: 'unknown profile', code: 'unknown_scope', args: { profile: 'pr_other' } },
    { name: 'unknown workspace', code: 'unknown_scope', args: { workspace: 'ws_none' } },
    { name: 'a workspace not shared with agents', code: 'unknown_scope', args: { workspace: 'ws_private' } },
    // Named handles
    { name: 'a handle nobody minted', code: 'invalid_handle', args: { destination: { handle: 'th_AAAAAAAAAAAAAAAAAAAAAAAA' } } },
    {
      name: 'a handle of another workspace',
      code: 'invalid_handle',
      args: {},
      arrange: async (context) => ({ destination: { handle: await context.handles.mint(binding(blogTab, { workspaceId: 'ws_other' }), 'rq_0', context.now) } }),
    },
    // The resolver (R1–R5, R7)
    { name: 'no tab matches the destination', code: 'target_not_found', args: { destination: { site: 'shop.example' } } },
    {
      name: 'two tabs match the destination',
      code: 'ambiguous_target',
      args: { destination: { site: 'blog.example' } },
      tabs: [blogTab, cafeTab, otherBlogTab],
    },
    { name: 'no destination and no request-time tab', code: 'missing_context', args: {} },
    { name: 'a read-only request with no reference', code: 'missing_context', args: { readOnly: true } },
    { name: 'a reference that names nothing', code: 'invalid_request', args: { destination: { tabId: 1 }, references: [{}] } },
    { name: 'the same tab to write and to read', code: 'role_conflict', args: { destination: { tabId: 1 }, references: [{ tabId: 1 }] } },
    { name: 'writing where the workspace allows only reading', code: 'read_only_target', args: { destination: { tabId: 2 } } },
    {
      name: 'an act running on the tab now',
      code: 'target_busy',
      args: { destination: { tabId: 1 } },
      arrange: (context) => void context.reservations.reserve(1, 'rq_running'),
    },
    {
      name: 'another program writes to the tab',
      code: 'target_busy',
      args: { destination: { tabId: 1 } },
      arrange: (context) => void context.local.setState({ programs: { pg_1: program('pg_1', 'weekly', binding(blogTab)) } }),
    },
    // Observing the chosen tab (R6, R7)
    {
      name: 'the write target has no loaded page',
      code: 'context_changed',
      args: { destination: { tabId: 1 } },
      arrange: (context) => void (context.tabList = [{ ...blogTab, documentId: null, discarded: true }, cafeTab]),
    },
    {
      name: 'the page does not answer',
      code: 'timeout',
      args: { destination: { tabId: 1 } },
      arrange: (context) => void (context.page.observe = () => failure(tetherError('timeout', 'The page did not answer in time.'))),
    },
    {
      name: 'the page is signed out',
      code: 'not_signed_in',
      args: { destination: { tabId: 1 } },
      arrange: (context) => void (context.page.observe = observed((page) => ({ ...page, signIn: { state: 'signed_out', account: null, via: 'generic' } }))),
    },
    {
      name: 'another account than the person set',
      code: 'account_mismatch',
      args: { destination: { tabId: 1 } },
      arrange: (context) => {
        const space = context.local.getState().workspaces.ws_test;
        if (space)
          void context.local.setState({
            workspaces: { ws_test: { ...space, sites: { ...space.sites, [BLOG]: { writable: true, publishWithoutApproval: false, expectedAccount: 'bob' } } } },
          });
      },
    },
    {
      name: 'a draft in progress, not continued',
      code: 'draft_in_progress',
      args: { destination: { tabId: 1 } },
      arrange: (context) => void (context.page.observe = observed((page) => ({ ...page, draft: { inProgress: true, reasons: ['autosave-banner'] } }))),
    },
    {
      name: 'the page answered for a tab that has no document to bind',
      code: 'context_changed',
      args: { destination: { tabId: 1 } },
      arrange: (context) => {
        context.tabList = [{ ...blogTab, documentId: null }, cafeTab];
        // A page that answers anyway: the binding still needs a document.
        context.observeTab = (tab) => Promise.resolve(DEFAULT_PAGE.observe({ type: 'observe' }, tab.tabId));
      },
    },
  ])('$name → $code', async ({ code, args, arrange, tabs }) => {
    const context = setup(tabs);
    const named = await arrange?.(context);
    const minted = context.handleRecords.size;
    const programs = context.local.getState().programs;
    const answer = await resolve(context, { ...args, ...(named ?? {}), program: 'weekly-2' });
    expect(!answer.ok && answer.error.code).toBe(code);
    expect(context.handleRecords.size).toBe(minted);
    expect(context.local.getState().programs).toBe(programs);
  });
});

describe('resolve: what it binds', () => {
  it('a write target and a reference: handles bound to the document, account and page instance seen; only those tabs observed', async () => {
    const context = setup([blogTab, cafeTab, otherBlogTab]);
    const answer = await resolve(context, { destination: { tabId: 1 }, references: [{ site: 'cafe.example' }] });
    if (!answer.ok) throw new Error(answer.error.message);
    expect(answer.value).toMatchObject({ write: { tabId: 1, rule: 'named_in_request', account: 'alice' }, references: [{ tabId: 2 }] });
    const write = context.handleRecords.get(answer.value.write?.handle ?? '');
    expect(write?.binding).toEqual(binding(blogTab));
    expect(write?.elements).toEqual({ body: 'el-1-body' });
    const reference = context.handleRecords.get(answer.value.references?.[0]?.handle ?? '');
    expect(reference?.binding).toMatchObject({ tabId: 2, role: 'reference', account: null, pageInstance: 'pg_1' });
    expect(context.asked.map((asked) => asked.tabId).sort()).toEqual([1, 2]);
    expect(answer.value.explanation).toMatch(/Post/);
  });

  it('the request-time tab is the write target when nothing is named', async () => {
    const context = setup();
    context.requestTimeTabId = 1;
    const answer = await resolve(context, {});
    expect(answer.ok && answer.value.write).toMatchObject({ tabId: 1, rule: 'request_time_tab' });
  });

  it('a draft the request continues is bound', async () => {
    const context = setup();
    context.page.observe = observed((page) => ({ ...page, draft: { inProgress: true, reasons: ['autosave-banner'] } }));
    expect((await resolve(context, { destination: { tabId: 1 }, continueDraft: true })).ok).toBe(true);
  });

  it('a new program starts on its write target; the next request continues it there', async () => {
    const context = setup();
    const started = await resolve(context, { destination: { tabId: 1 }, program: 'weekly' });
    expect(started.ok && started.value.program).toMatchObject({ label: 'weekly', continued: false });
    expect(Object.values(context.local.getState().programs)).toMatchObject([{ label: 'weekly', status: 'running', target: { tabId: 1 } }]);
    const continued = await resolve(context, { program: 'weekly' });
    expect(continued.ok && continued.value.write).toMatchObject({ tabId: 1, rule: 'program_target' });
    expect(continued.ok && continued.value.program).toMatchObject({ label: 'weekly', continued: true });
  });

  it('a read-only request binds references only', async () => {
    const context = setup();
    const answer = await resolve(context, { readOnly: true, references: [{ tabId: 2 }] });
    expect(answer.ok && answer.value.write).toBeUndefined();
    expect(answer.ok && answer.value.references).toHaveLength(1);
  });
});
