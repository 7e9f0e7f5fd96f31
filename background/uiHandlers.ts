/**
 * What the person's pages can ask of the worker: read the state, make and change workspaces,
 * end programs, decide approvals, read the journal, pair with the agent server.
 *
 * Everything a handler touches comes in through its UiContext (the worker builds the real one:
 * adapters/uiContext.ts; the unit tests a fake), and the workspace changes themselves are the pure
 * functions of core/workspaces.ts.
 */
import { labelOf, shortIdOf, type AgentSession } from '../shared/agent/agentIdentity.ts';
import { uiApprovalOf } from '../shared/model/approval.ts';
import { failure, success, tetherError, type Outcome } from '../shared/errors.ts';
import type { JournalRecord } from '../shared/model/journalRecord.ts';
import { siteLabel } from '../shared/model/matchSite.ts';
import { originOf, type TabMeta, type TargetBinding, type Workspace } from '../shared/model/targetModel.ts';
import type { AgentRequest } from '../shared/agent/agentProtocol.ts';
import type { ConnectionStatus, RuntimeAnswers, RuntimeRequest, UiDeparture, UiHold, UiState, UiTab, UiWindow } from '../shared/extension/uiProtocol.ts';
import type { DepartureNotice, LocalState, SessionState } from './state/store.ts';
import { endProgram } from './core/programs.ts';
import { liveHold } from './core/tabHolds.ts';
import { dropHolds } from './core/holdStore.ts';
import { changeWorkspace, sitePolicyFor, withoutWorkspace, withSitePolicy, withTabAdded, withTabRemoved, workspaceFromTabs } from './core/workspaces.ts';
import type { StateAccess } from './toolContext.ts';

export interface UiContext {
  /** State loaded and the profile made: a page's first request (right after install) waits for it. */
  ready(): Promise<void>;
  handleAgentRequest(request: AgentRequest, as?: AgentSession): Promise<RuntimeAnswers['agent.request']>;
  notify(): void;
  /** The person's decision on a pending approval; false when it is no longer pending. */
  decideApproval(id: string, approve: boolean): Promise<boolean>;
  /** The person's answer to an agent's question; false when it is no longer waiting (or the tab is not a candidate). */
  answerQuestion(id: string, tabId: number | null): Promise<boolean>;
  /** The person releases a tab from the agent that holds it; false when nobody does. */
  releaseHold(tabId: number): Promise<boolean>;
  local: StateAccess<LocalState>;
  session: StateAccess<SessionState>;
  tabs: {
    readTabMeta(tabId: number): Promise<TabMeta | null>;
    readTabsMeta(tabIds: readonly number[]): Promise<TabMeta[]>;
    readView(): Promise<TabMeta | null>;
    readRequestTimeTab(memberTabIds: readonly number[]): Promise<number | null>;
    /** The tabs of one window, and of one tab group with the group's title and window. */
    inWindow(windowId: number): Promise<TabMeta[]>;
    inGroup(groupId: number): Promise<{ title: string; windowId: number; tabs: TabMeta[] }>;
    windows(): Promise<UiWindow[]>;
  };
  /** Asks a tab's page for sign-in and account, and keeps what it showed. */
  observeTab(tab: TabMeta): Promise<unknown>;
  /** Tabs with an act running now (they count as held). */
  busyTabIds(): number[];
  revokeHandles(match: (binding: TargetBinding) => boolean): Promise<number>;
  forgetDepartures(match: (notice: DepartureNotice) => boolean): Promise<void>;
  cancelScheduled(id: string): Promise<void>;
  journal: {
    list(options: { workspaceId?: string; limit: number }): Promise<JournalRecord[]>;
    get(id: string): Promise<JournalRecord | null>;
    export(): Promise<string>;
  };
  connection: {
    status(): ConnectionStatus;
    set(token: string, port?: number): Promise<ConnectionStatus>;
    forget(): Promise<ConnectionStatus>;
    reconnect(): Promise<ConnectionStatus>;
  };
  /** This build's label, shown in the panel. */
  build: string;
  clock(): number;
}

/** The live holds, with the tab's title and site as the panel shows them. */
async function uiHolds(context: UiContext): Promise<UiHold[]> {
  const { holds } = context.session.getState();
  const now = context.clock();
  const busyTabIds = context.busyTabIds();
  const live = Object.values(holds).filter((hold) => liveHold({ holds, now, busyTabIds }, hold.tabId) !== null);
  const tabs = await context.tabs.readTabsMeta(live.map((hold) => hold.tabId));
  // A closed tab's hold is left to expire (an act through it is told the tab is gone); the panel shows open tabs only.
  return live
    .filter((hold) => tabs.some((item) => item.tabId === hold.tabId))
    .sort((a, b) => a.since - b.since)
    .map((hold) => {
      const tab = tabs.find((item) => item.tabId === hold.tabId);
      return {
        tabId: hold.tabId,
        workspaceId: hold.workspaceId,
        title: tab?.title ?? '',
        site: tab ? siteLabel(tab.url) : '',
        agent: labelOf(hold.agent),
        since: hold.since,
        ...(hold.task !== undefined ? { task: hold.task } : {}),
      };
    });
}

function uiTab(context: UiContext, tab: TabMeta, view: TabMeta | null): UiTab {
  const seen = context.session.getState().seen[String(tab.tabId)];
  const current = seen && seen.documentId === tab.documentId ? seen : null;
  return {
    tabId: tab.tabId,
    title: tab.title,
    url: tab.url,
    site: siteLabel(tab.url),
    origin: originOf(tab.url),
    account: current?.account ?? null,
    signIn: current?.state ?? 'unknown',
    adapter: current?.adapter ?? null,
    adapterProblem: current?.adapterProblem ?? null,
    active: tab.active,
    isView: view?.tabId === tab.tabId,
  };
}

/** Tabs whose page has not been observed since it loaded are observed now, so each shows its account. */
async function observeUnseen(context: UiContext, tabs: TabMeta[]): Promise<void> {
  const seen = context.session.getState().seen;
  const stale = tabs.filter((tab) => tab.documentId !== null && seen[String(tab.tabId)]?.documentId !== tab.documentId && originOf(tab.url) !== null);
  await Promise.all(stale.map((tab) => context.observeTab(tab)));
}

function toSiteIs(workspace: Workspace, url: string): UiDeparture['toSiteIs'] {
  const origin = originOf(url);
  const policy = origin === null ? undefined : workspace.sites[origin];
  return policy === undefined ? 'outside' : policy.writable ? 'writable' : 'read_only';
}

/** Tabs that left a workspace by navigating, while the tab is open and still outside it. */
async function departures(context: UiContext): Promise<UiDeparture[]> {
  const workspaces = context.local.getState().workspaces;
  const notices = Object.values(context.session.getState().departures).sort((a, b) => a.at - b.at);
  const shown = await Promise.all(
    notices.map(async (notice): Promise<UiDeparture | null> => {
      const workspace = workspaces[notice.workspaceId];
      const tab = await context.tabs.readTabMeta(notice.tabId);
      if (!workspace || !tab || workspace.tabIds.includes(notice.tabId)) return null;
      return {
        workspaceId: workspace.id,
        workspaceName: workspace.name,
        tabId: notice.tabId,
        title: tab.title || tab.url,
        fromSite: siteLabel(notice.fromUrl),
        toSite: siteLabel(notice.toUrl),
        toSiteIs: toSiteIs(workspace, notice.toUrl),
        at: notice.at,
      };
    }),
  );
  return shown.filter((item): item is UiDeparture => item !== null);
}

async function uiState(context: UiContext): Promise<UiState> {
  const state = context.local.getState();
  const view = await context.tabs.readView();
  // Workspace tabs show their account; the view also shows which adapter read it (Now).
  const shown = await context.tabs.readTabsMeta(Object.values(state.workspaces).flatMap((workspace) => workspace.tabIds));
  await observeUnseen(context, view && !shown.some((tab) => tab.tabId === view.tabId) ? [...shown, view] : shown);
  const workspaces = await Promise.all(
    Object.values(state.workspaces)
      .sort((a, b) => a.createdAt - b.createdAt)
      .map(async (workspace) => ({
        ...workspace,
        tabs: (await context.tabs.readTabsMeta(workspace.tabIds)).map((tab) => uiTab(context, tab, view)),
        requestTimeTab: await context.tabs.readRequestTimeTab(workspace.tabIds),
      })),
  );
  const now = context.clock();
  const approvals = Object.values(context.session.getState().approvals)
    .filter((approval) => approval.decision === 'pending' && approval.expiresAt > now)
    .map(uiApprovalOf);
  if (!state.profile) throw new Error('profile not ready');
  return {
    build: context.build,
    profile: state.profile,
    workspaces,
    view: view ? uiTab(context, view, view) : null,
    programs: Object.values(state.programs).map((program) => {
      const agent = Object.values(state.scheduled).find((item) => item.programId === program.id)?.agent;
      return agent ? { ...program, agent: labelOf(agent) } : program;
    }),
    approvals,
    questions: Object.values(context.session.getState().questions)
      .filter((question) => question.decision === 'pending' && question.expiresAt > now)
      .sort((a, b) => a.createdAt - b.createdAt),
    holds: await uiHolds(context),
    departures: await departures(context),
    connection: context.connection.status(),
    windows: await context.tabs.windows(),
  };
}

/** A workspace changed as it is in the store at that moment (core/workspaces.ts: changeWorkspace). */
async function changed(context: UiContext, workspaceId: string, change: (workspace: Workspace) => Workspace): Promise<Outcome<Workspace>> {
  let outcome: Outcome<Workspace> = failure(tetherError('unknown_scope', 'No such workspace.', { workspace: workspaceId }));
  await context.local.setState((state) => {
    const next = changeWorkspace(state.workspaces, workspaceId, change);
    if (!next.ok) return {};
    outcome = success(next.value.changed);
    return { workspaces: next.value.workspaces };
  });
  return outcome;
}

async function createFromTabs(context: UiContext, tabs: TabMeta[], name: string | undefined, source: Workspace['source']): Promise<Outcome<Workspace>> {
  const made = workspaceFromTabs({ tabs, name, source, now: context.clock() });
  if (!made.ok) return made;
  const workspace = made.value;
  await context.local.setState((state) => ({ workspaces: { ...state.workspaces, [workspace.id]: workspace } }));
  return made;
}

/** Deleting or unsharing a workspace ends everything agents held in it, at once. */
async function releaseWorkspace(context: UiContext, workspaceId: string): Promise<void> {
  await context.revokeHandles((binding) => binding.workspaceId === workspaceId);
  await dropHolds({ session: context.session }, (hold) => hold.workspaceId === workspaceId);
  const state = context.local.getState();
  for (const scheduled of Object.values(state.scheduled).filter((item) => item.workspaceId === workspaceId)) await context.cancelScheduled(scheduled.id);
  for (const program of Object.values(context.local.getState().programs).filter((item) => item.workspaceId === workspaceId))
    await endProgram(context.local, program.id);
}

type Handler<K extends RuntimeRequest['type']> = (request: Extract<RuntimeRequest, { type: K }>, context: UiContext) => Promise<Outcome<RuntimeAnswers[K]>>;

export const UI_HANDLERS: { [K in RuntimeRequest['type']]: Handler<K> } = {
  'state.get': async (_request, context) => success(await uiState(context)),
  'profile.rename': async (request, context) => {
    const profile = context.local.getState().profile;
    if (!profile) return failure(tetherError('unknown_scope', 'No profile yet.'));
    const renamed = { ...profile, label: request.label };
    await context.local.setState({ profile: renamed });
    return success(renamed);
  },
  'workspace.createFromWindow': async (request, context) =>
    createFromTabs(context, await context.tabs.inWindow(request.windowId), request.name, { kind: 'window', windowId: request.windowId }),
  'workspace.createFromGroup': async (request, context) => {
    const group = await context.tabs.inGroup(request.groupId);
    return createFromTabs(context, group.tabs, request.name ?? (group.title || undefined), {
      kind: 'group',
      groupId: request.groupId,
      windowId: group.windowId,
    });
  },
  'workspace.rename': async (request, context) => changed(context, request.workspaceId, (workspace) => ({ ...workspace, name: request.name })),
  'workspace.share': async (request, context) => {
    // Unsharing takes effect first (the workspace leaves agents' scope), then what they held goes.
    const shared = await changed(context, request.workspaceId, (workspace) => ({ ...workspace, shared: request.shared }));
    if (shared.ok && !request.shared) await releaseWorkspace(context, request.workspaceId);
    return shared;
  },
  'workspace.setSite': async (request, context) => {
    const site = sitePolicyFor(request.origin, request.policy);
    if (!site.ok) return site;
    return changed(context, request.workspaceId, (workspace) => withSitePolicy(workspace, site.value.origin, site.value.policy));
  },
  'workspace.addTab': async (request, context) => {
    const tab = await context.tabs.readTabMeta(request.tabId);
    if (!tab || originOf(tab.url) === null) return failure(tetherError('target_not_found', 'That tab is gone or is not a web page.'));
    const added = await changed(context, request.workspaceId, (workspace) => withTabAdded(workspace, tab));
    // Added back by the person (with its site, read only): the notice that it left has done its work.
    if (added.ok) await context.forgetDepartures((notice) => notice.workspaceId === request.workspaceId && notice.tabId === request.tabId);
    return added;
  },
  'workspace.removeTab': async (request, context) => {
    // Out of the workspace first, so no request can use the tab while its handles are revoked.
    const removed = await changed(context, request.workspaceId, (workspace) => withTabRemoved(workspace, request.tabId));
    if (removed.ok) {
      await context.revokeHandles((binding) => binding.workspaceId === request.workspaceId && binding.tabId === request.tabId);
      await dropHolds({ session: context.session }, (hold) => hold.workspaceId === request.workspaceId && hold.tabId === request.tabId);
    }
    return removed;
  },
  'workspace.delete': async (request, context) => {
    if (!context.local.getState().workspaces[request.workspaceId]) {
      return failure(tetherError('unknown_scope', 'No such workspace.', { workspace: request.workspaceId }));
    }
    await releaseWorkspace(context, request.workspaceId);
    await context.local.setState((state) => ({ workspaces: withoutWorkspace(state.workspaces, request.workspaceId) }));
    return success({ deleted: request.workspaceId });
  },
  'program.end': async (request, context) => {
    const scheduled = Object.values(context.local.getState().scheduled).find((item) => item.programId === request.programId);
    if (scheduled) await context.cancelScheduled(scheduled.id);
    else await endProgram(context.local, request.programId);
    return success({ ended: request.programId });
  },
  'approval.decide': async (request, context) => {
    if (await context.decideApproval(request.approvalId, request.approve)) return success({ decided: true });
    // The panel showed it a moment ago: its time ran out, or it was answered elsewhere. Say so.
    return failure(
      tetherError('approval_required', 'This approval is no longer waiting: its time ran out, or it was already answered.', { approval: request.approvalId }),
    );
  },
  'question.answer': async (request, context) => {
    if (await context.answerQuestion(request.questionId, request.tabId)) return success({ answered: true });
    return failure(
      tetherError('approval_required', 'This question is no longer waiting: its time ran out, or it was already answered.', { question: request.questionId }),
    );
  },
  'hold.release': async (request, context) => {
    if (await context.releaseHold(request.tabId)) return success({ released: request.tabId });
    return failure(tetherError('invalid_request', 'No agent holds this tab now.', { tabId: request.tabId }));
  },
  'departure.dismiss': async (request, context) => {
    const known = Object.values(context.session.getState().departures).some(
      (notice) => notice.workspaceId === request.workspaceId && notice.tabId === request.tabId,
    );
    await context.forgetDepartures((notice) => notice.workspaceId === request.workspaceId && notice.tabId === request.tabId);
    return success({ dismissed: known });
  },
  'journal.list': async (request, context) =>
    success(await context.journal.list({ limit: request.limit, ...(request.workspaceId ? { workspaceId: request.workspaceId } : {}) })),
  'journal.get': async (request, context) => success(await context.journal.get(request.recordId)),
  'journal.export': async (_request, context) => {
    const jsonl = await context.journal.export();
    return success({ jsonl, count: jsonl === '' ? 0 : jsonl.trimEnd().split('\n').length });
  },
  'connection.set': async (request, context) => success(await context.connection.set(request.token, request.port)),
  'connection.forget': async (_request, context) => success(await context.connection.forget()),
  'connection.reconnect': async (_request, context) => success(await context.connection.reconnect()),
  'agent.request': async (request, context) =>
    success(
      await context.handleAgentRequest(
        { tool: request.tool as AgentRequest['tool'], args: request.args },
        // The person's own pages may say which agent a request speaks for (the tests play several).
        request.as ? { name: request.as.name, id: shortIdOf(request.as.session), session: `page:${request.as.session}` } : undefined,
      ),
    ),
};

export async function handleUiRequest(request: RuntimeRequest, context: UiContext): Promise<Outcome<unknown>> {
  const handler = UI_HANDLERS[request.type] as Handler<typeof request.type>;
  const answer = await handler(request as never, context);
  if (request.type !== 'state.get' && !request.type.startsWith('journal.')) context.notify();
  return answer;
}
