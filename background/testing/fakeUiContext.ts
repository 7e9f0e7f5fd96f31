/**
 * A UiContext for unit tests, with no browser: in-memory stores (those of fakeToolContext), tabs
 * from a list, windows and groups as given, and a record of what the handlers asked for (handles
 * revoked, schedules cancelled, departures forgotten, pages observed, pages notified).
 */
import type { AgentSession } from '../../shared/agent/agentIdentity.ts';
import type { AgentRequest } from '../../shared/agent/agentProtocol.ts';
import type { TabMeta, TargetBinding, Workspace } from '../../shared/model/targetModel.ts';
import type { JournalRecord } from '../../shared/model/journalRecord.ts';
import type { ConnectionStatus, UiWindow } from '../../shared/extension/uiProtocol.ts';
import type { UiContext } from '../uiHandlers.ts';
import { fakeToolContext } from './fakeToolContext.ts';

export interface FakeUiContext extends UiContext {
  tabList: TabMeta[];
  groups: Record<number, { title: string; windowId: number; tabIds: number[] }>;
  windowList: UiWindow[];
  bindings: TargetBinding[];
  cancelled: string[];
  observed: number[];
  notified: number;
  records: JournalRecord[];
  agentRequests: Array<{ request: AgentRequest; as: AgentSession | undefined }>;
  /** What the person's decisions return (approval, question, hold release). */
  answers: { approval: boolean; question: boolean; release: boolean };
  now: number;
}

const STATUS: ConnectionStatus = { state: 'not_paired' } as ConnectionStatus;

export function fakeUiContext(options: { workspaces?: Workspace[]; tabs?: TabMeta[] } = {}): FakeUiContext {
  const tools = fakeToolContext(options);
  const context: FakeUiContext = {
    tabList: options.tabs ?? [],
    groups: {},
    windowList: [],
    bindings: [],
    cancelled: [],
    observed: [],
    notified: 0,
    records: [],
    agentRequests: [],
    answers: { approval: true, question: true, release: true },
    now: 1_700_000_000_000,
    ready: async () => undefined,
    handleAgentRequest: async (request, as) => {
      context.agentRequests.push({ request, as });
      return { ok: true, result: { profiles: [] } };
    },
    notify: () => {
      context.notified += 1;
    },
    decideApproval: async () => context.answers.approval,
    answerQuestion: async () => context.answers.question,
    releaseHold: async () => context.answers.release,
    local: tools.local,
    session: tools.session,
    tabs: {
      readTabMeta: async (tabId) => context.tabList.find((tab) => tab.tabId === tabId) ?? null,
      readTabsMeta: async (tabIds) => context.tabList.filter((tab) => tabIds.includes(tab.tabId)),
      readView: async () => null,
      readRequestTimeTab: async () => null,
      inWindow: async (windowId) => context.tabList.filter((tab) => tab.windowId === windowId),
      inGroup: async (groupId) => {
        const group = context.groups[groupId];
        if (!group) throw new Error(`no group ${groupId}`);
        return { title: group.title, windowId: group.windowId, tabs: context.tabList.filter((tab) => group.tabIds.includes(tab.tabId)) };
      },
      windows: async () => context.windowList,
    },
    observeTab: async (tab) => {
      context.observed.push(tab.tabId);
    },
    busyTabIds: () => [],
    revokeHandles: async (match) => {
      const before = context.bindings.length;
      context.bindings = context.bindings.filter((binding) => !match(binding));
      return before - context.bindings.length;
    },
    forgetDepartures: async (match) => {
      const departures = Object.fromEntries(Object.entries(context.session.getState().departures).filter(([, notice]) => !match(notice)));
      context.session.setState({ departures });
    },
    cancelScheduled: async (id) => {
      context.cancelled.push(id);
    },
    journal: {
      list: async ({ limit, workspaceId }) =>
        context.records.filter((record) => workspaceId === undefined || record.workspaceId === workspaceId).slice(0, limit),
      get: async (id) => context.records.find((record) => record.id === id) ?? null,
      export: async () => context.records.map((record) => `${JSON.stringify(record)}\n`).join(''),
    },
    connection: { status: () => STATUS, set: async () => STATUS, forget: async () => STATUS, reconnect: async () => STATUS },
    build: 'test-build',
    clock: () => context.now,
  };
  return context;
}
