/**
 * The person's handlers, table by table, over a fake context (testing/fakeUiContext.ts): what
 * each request changes in the stores, what it asks of the rest of the worker, and how it refuses.
 */
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../shared/errors.ts';
import type { JournalRecord } from '../shared/model/journalRecord.ts';
import type { RuntimeRequest } from '../shared/extension/uiProtocol.ts';
import { binding, tab, workspace } from '../shared/testing/fixtures.ts';
import { fakeUiContext, type FakeUiContext } from './testing/fakeUiContext.ts';
import { handleUiRequest, UI_HANDLERS } from './uiHandlers.ts';

const BLOG = tab(1, 'https://blog.example/write', 'Write a post');
const CAFE = tab(2, 'https://cafe.example/notes', 'Notes', { windowId: 2 });
const BLANK = tab(3, 'about:blank', 'New tab', { windowId: 2 });

interface Row {
  name: string;
  request: RuntimeRequest;
  setup?(context: FakeUiContext): void;
  /** The error code, or 'ok'. */
  gives: string;
  then?(context: FakeUiContext, outcome: Outcome<unknown>): void;
}

function setup(): FakeUiContext {
  const context = fakeUiContext({ workspaces: [workspace([BLOG], ['https://blog.example'])], tabs: [BLOG, CAFE, BLANK] });
  context.bindings = [binding(BLOG, { workspaceId: 'ws_test' }), binding(CAFE, { workspaceId: 'ws_other' })];
  return context;
}

const ws = (context: FakeUiContext) => context.local.getState().workspaces.ws_test;
const valueOf = (outcome: Outcome<unknown>) => (outcome.ok ? outcome.value : null) as Record<string, unknown>;

const covered = new Set<string>();

async function run(row: Row): Promise<void> {
  covered.add(row.request.type);
  const context = setup();
  row.setup?.(context);
  const outcome = await handleUiRequest(row.request, context);
  expect(outcome.ok ? 'ok' : outcome.error.code, row.name).toBe(row.gives);
  row.then?.(context, outcome);
}

const holdOnBlog = (context: FakeUiContext) =>
  context.session.setState({
    holds: { '1': { id: 'hd_1', tabId: 1, workspaceId: 'ws_test', agent: { name: 'A', id: 'a', session: 's1' }, since: 0, usedAt: context.now } },
  });

describe('workspaces: made and changed only by the person', () => {
  it.each<Row>([
    {
      name: 'from a window: its web pages only, read only, not shared',
      request: { type: 'workspace.createFromWindow', windowId: 2 },
      gives: 'ok',
      then: (context, outcome) => {
        const made = valueOf(outcome);
        expect(made).toMatchObject({ name: 'cafe.example', shared: false, tabIds: [2], sites: { 'https://cafe.example': { writable: false } } });
        expect(context.local.getState().workspaces[String(made.id)]).toEqual(made);
      },
    },
    { name: 'from a window with no web page', request: { type: 'workspace.createFromWindow', windowId: 9 }, gives: 'target_not_found' },
    {
      name: 'from a tab group: the group’s title names it',
      request: { type: 'workspace.createFromGroup', groupId: 5 },
      setup: (context) => (context.groups[5] = { title: 'Drafts', windowId: 2, tabIds: [2, 3] }),
      gives: 'ok',
      then: (_context, outcome) => expect(valueOf(outcome)).toMatchObject({ name: 'Drafts', source: { kind: 'group', groupId: 5, windowId: 2 }, tabIds: [2] }),
    },
    {
      name: 'rename',
      request: { type: 'workspace.rename', workspaceId: 'ws_test', name: 'Weekly' },
      gives: 'ok',
      then: (context) => expect(ws(context)?.name).toBe('Weekly'),
    },
    { name: 'rename an unknown workspace', request: { type: 'workspace.rename', workspaceId: 'ws_gone', name: 'X' }, gives: 'unknown_scope' },
    {
      name: 'share: what agents held stays',
      request: { type: 'workspace.share', workspaceId: 'ws_test', shared: true },
      setup: holdOnBlog,
      gives: 'ok',
      then: (context) => {
        expect(ws(context)?.shared).toBe(true);
        expect(context.bindings).toHaveLength(2);
        expect(Object.keys(context.session.getState().holds)).toEqual(['1']);
      },
    },
    {
      name: 'unshare: its handles, holds, schedules and programs end; other workspaces’ handles stay',
      request: { type: 'workspace.share', workspaceId: 'ws_test', shared: false },
      setup: (context) => {
        holdOnBlog(context);
        context.local.setState({
          scheduled: { sc_1: { id: 'sc_1', workspaceId: 'ws_test', programId: 'pg_1' } as never },
          programs: { pg_2: { id: 'pg_2', workspaceId: 'ws_test', label: 'notes', status: 'running', target: binding(BLOG), createdAt: 0 } as never },
        });
      },
      gives: 'ok',
      then: (context) => {
        expect(ws(context)?.shared).toBe(false);
        expect(context.bindings.map((item) => item.workspaceId)).toEqual(['ws_other']);
        expect(context.session.getState().holds).toEqual({});
        expect(context.cancelled).toEqual(['sc_1']);
        expect(context.local.getState().programs.pg_2).toBeUndefined();
      },
    },
    {
      name: 'unshare an unknown workspace: nothing released',
      request: { type: 'workspace.share', workspaceId: 'ws_gone', shared: false },
      gives: 'unknown_scope',
    },
    {
      name: 'set a site: its origin, and an empty expected account left out',
      request: {
        type: 'workspace.setSite',
        workspaceId: 'ws_test',
        origin: 'https://cafe.example/some/page',
        policy: { writable: true, publishWithoutApproval: false, expectedAccount: '  ' },
      },
      gives: 'ok',
      then: (context) => expect(ws(context)?.sites['https://cafe.example']).toEqual({ writable: true, publishWithoutApproval: false }),
    },
    {
      name: 'set a site that is not http(s)',
      request: { type: 'workspace.setSite', workspaceId: 'ws_test', origin: 'file:///etc', policy: { writable: true, publishWithoutApproval: false } },
      gives: 'invalid_request',
      then: (context) => expect(Object.keys(ws(context)?.sites ?? {})).toEqual(['https://blog.example']),
    },
    {
      name: 'add a tab: its site joins read only, and the notice that it left is forgotten',
      request: { type: 'workspace.addTab', workspaceId: 'ws_test', tabId: 2 },
      setup: (context) => context.session.setState({ departures: { '2': { workspaceId: 'ws_test', tabId: 2, fromUrl: BLOG.url, toUrl: CAFE.url, at: 0 } } }),
      gives: 'ok',
      then: (context) => {
        expect(ws(context)?.tabIds).toEqual([1, 2]);
        expect(ws(context)?.sites['https://cafe.example']?.writable).toBe(false);
        expect(context.session.getState().departures).toEqual({});
      },
    },
    { name: 'add a tab that is not a web page', request: { type: 'workspace.addTab', workspaceId: 'ws_test', tabId: 3 }, gives: 'target_not_found' },
    { name: 'add a tab that is gone', request: { type: 'workspace.addTab', workspaceId: 'ws_test', tabId: 99 }, gives: 'target_not_found' },
    {
      name: 'remove a tab: its handles and hold go',
      request: { type: 'workspace.removeTab', workspaceId: 'ws_test', tabId: 1 },
      setup: holdOnBlog,
      gives: 'ok',
      then: (context) => {
        expect(ws(context)?.tabIds).toEqual([]);
        expect(context.bindings.map((item) => item.tabId)).toEqual([2]);
        expect(context.session.getState().holds).toEqual({});
      },
    },
    {
      name: 'delete: gone, with what agents held in it',
      request: { type: 'workspace.delete', workspaceId: 'ws_test' },
      setup: holdOnBlog,
      gives: 'ok',
      then: (context, outcome) => {
        expect(valueOf(outcome)).toEqual({ deleted: 'ws_test' });
        expect(context.local.getState().workspaces).toEqual({});
        expect(context.bindings.map((item) => item.workspaceId)).toEqual(['ws_other']);
        expect(context.session.getState().holds).toEqual({});
      },
    },
    { name: 'delete an unknown workspace', request: { type: 'workspace.delete', workspaceId: 'ws_gone' }, gives: 'unknown_scope' },
  ])('$name', run);
});

describe('the person’s decisions, the profile, programs and departures', () => {
  it.each<Row>([
    {
      name: 'rename the profile',
      request: { type: 'profile.rename', label: 'Work' },
      gives: 'ok',
      then: (context) => expect(context.local.getState().profile?.label).toBe('Work'),
    },
    {
      name: 'rename a profile not made yet',
      request: { type: 'profile.rename', label: 'Work' },
      setup: (c) => c.local.setState({ profile: null }),
      gives: 'unknown_scope',
    },
    {
      name: 'end a program that waits on a schedule: the schedule is cancelled',
      request: { type: 'program.end', programId: 'pg_1' },
      setup: (context) => context.local.setState({ scheduled: { sc_1: { id: 'sc_1', workspaceId: 'ws_test', programId: 'pg_1' } as never } }),
      gives: 'ok',
      then: (context) => expect(context.cancelled).toEqual(['sc_1']),
    },
    { name: 'approve while it waits', request: { type: 'approval.decide', approvalId: 'ap_1', approve: true }, gives: 'ok' },
    {
      name: 'approve what no longer waits',
      request: { type: 'approval.decide', approvalId: 'ap_1', approve: true },
      setup: (context) => (context.answers.approval = false),
      gives: 'approval_required',
    },
    { name: 'answer a question', request: { type: 'question.answer', questionId: 'q_1', tabId: 1 }, gives: 'ok' },
    {
      name: 'answer a question that no longer waits',
      request: { type: 'question.answer', questionId: 'q_1', tabId: null },
      setup: (context) => (context.answers.question = false),
      gives: 'approval_required',
    },
    { name: 'take a tab back', request: { type: 'hold.release', tabId: 1 }, gives: 'ok' },
    { name: 'take back a tab nobody holds', request: { type: 'hold.release', tabId: 1 }, setup: (c) => (c.answers.release = false), gives: 'invalid_request' },
    {
      name: 'dismiss a departure it knows',
      request: { type: 'departure.dismiss', workspaceId: 'ws_test', tabId: 2 },
      setup: (context) => context.session.setState({ departures: { '2': { workspaceId: 'ws_test', tabId: 2, fromUrl: BLOG.url, toUrl: CAFE.url, at: 0 } } }),
      gives: 'ok',
      then: (context, outcome) => {
        expect(valueOf(outcome)).toEqual({ dismissed: true });
        expect(context.session.getState().departures).toEqual({});
      },
    },
    {
      name: 'dismiss a departure it does not know',
      request: { type: 'departure.dismiss', workspaceId: 'ws_test', tabId: 2 },
      gives: 'ok',
      then: (_context, outcome) => expect(valueOf(outcome)).toEqual({ dismissed: false }),
    },
  ])('$name', run);
});

describe('reading: state, journal, connection, agent requests', () => {
  const record = (id: string, workspaceId: string) => ({ id, workspaceId }) as JournalRecord;

  it.each<Row>([
    {
      name: 'the state: workspaces with their tabs, unseen pages observed, the build',
      request: { type: 'state.get' },
      gives: 'ok',
      then: (context, outcome) => {
        const state = valueOf(outcome);
        expect(state.build).toBe('test-build');
        expect((state.workspaces as Array<{ tabs: Array<{ tabId: number; site: string }> }>)[0]?.tabs).toMatchObject([{ tabId: 1, site: 'blog.example' }]);
        expect(context.observed).toEqual([1]);
        expect(context.notified).toBe(0);
      },
    },
    {
      name: 'the journal of one workspace',
      request: { type: 'journal.list', workspaceId: 'ws_test', limit: 10 },
      setup: (context) => (context.records = [record('j1', 'ws_test'), record('j2', 'ws_other')]),
      gives: 'ok',
      then: (context, outcome) => {
        expect((valueOf(outcome) as unknown as JournalRecord[]).map((item) => item.id)).toEqual(['j1']);
        expect(context.notified).toBe(0);
      },
    },
    {
      name: 'one record',
      request: { type: 'journal.get', recordId: 'j9' },
      gives: 'ok',
      then: (_c, outcome) => expect(outcome).toEqual({ ok: true, value: null }),
    },
    {
      name: 'the journal exported, counted by line',
      request: { type: 'journal.export' },
      setup: (context) => (context.records = [record('j1', 'ws_test'), record('j2', 'ws_other')]),
      gives: 'ok',
      then: (_context, outcome) => expect(valueOf(outcome).count).toBe(2),
    },
    { name: 'pairing', request: { type: 'connection.set', token: 'x'.repeat(43) }, gives: 'ok', then: (context) => expect(context.notified).toBe(1) },
    { name: 'forget pairing', request: { type: 'connection.forget' }, gives: 'ok' },
    { name: 'reconnect', request: { type: 'connection.reconnect' }, gives: 'ok' },
    {
      name: 'an agent request from Tether’s own page speaks for the agent it names',
      request: { type: 'agent.request', tool: 'context', args: {}, as: { name: 'B', session: 'abc' } },
      gives: 'ok',
      then: (context) =>
        expect(context.agentRequests).toEqual([{ request: { tool: 'context', args: {} }, as: { name: 'B', id: expect.any(String), session: 'page:abc' } }]),
    },
  ])('$name', run);
});

it('every handler has a row in the tables above', () => {
  expect([...covered].sort()).toEqual(Object.keys(UI_HANDLERS).sort());
});
