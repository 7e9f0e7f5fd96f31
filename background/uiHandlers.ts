/**
 * What the person's pages can ask of the worker: read the state, make and change workspaces,
 * end programs, decide approvals, read the journal, pair with the agent server.
 */
import browser from 'webextension-polyfill';
import { labelOf, type AgentSession } from '../shared/agentIdentity.ts';
import { uiApprovalOf } from '../shared/approval.ts';
import { failure, success, tetherError, type Outcome } from '../shared/errors.ts';
import { siteLabel } from '../shared/matchSite.ts';
import { originOf, type TabMeta, type Workspace } from '../shared/model.ts';
import type { AgentRequest } from '../shared/protocol.ts';
import type { RuntimeAnswers, RuntimeRequest, UiDeparture, UiHold, UiState, UiTab, UiWindow } from '../shared/runtimeProtocol.ts';
import { forgetDepartures } from './state/departures.ts';
import { toTabMeta, readTabMeta, readTabsMeta, readView, readRequestTimeTab } from './adapters/browserTabs.ts';
import { connectionStatus, forgetPairing, reconnect, setPairing } from './adapters/agentConnection.ts';
import { revokeHandles } from './state/handles.ts';
import { exportJournal, getJournalRecord, listJournal } from './state/journal.ts';
import { endProgram } from './core/programs.ts';
import { cancelScheduled } from './adapters/scheduler.ts';
import { observeTab } from './adapters/observeTab.ts';
import { localStore, sessionStore } from './state/store.ts';
import { tabReservations } from './core/tabReservations.ts';
import { liveHold } from './core/tabHolds.ts';
import { dropHolds } from './core/holdStore.ts';
import { shortIdOf } from '../shared/agentIdentity.ts';
import { defaultWorkspaceName, newWorkspace, withTabAdded, withTabRemoved } from './core/workspaces.ts';

export interface UiDeps {
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
}

/** The live holds, with the tab's title and site as the panel shows them. */
async function uiHolds(): Promise<UiHold[]> {
  const { holds } = sessionStore.getState();
  const now = Date.now();
  const busyTabIds = tabReservations.reserved();
  const live = Object.values(holds).filter((hold) => liveHold({ holds, now, busyTabIds }, hold.tabId) !== null);
  const tabs = await readTabsMeta(live.map((hold) => hold.tabId));
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

function uiTab(tab: TabMeta, view: TabMeta | null): UiTab {
  const seen = sessionStore.getState().seen[String(tab.tabId)];
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

async function windows(): Promise<UiWindow[]> {
  const all = await browser.windows.getAll({ populate: true, windowTypes: ['normal'] });
  const groups = await browser.tabGroups.query({});
  return all.map((window) => ({
    windowId: window.id ?? -1,
    focused: window.focused,
    tabCount: window.tabs?.length ?? 0,
    groups: groups
      .filter((group) => group.windowId === window.id)
      .map((group) => ({
        groupId: group.id,
        title: group.title ?? '',
        color: group.color,
        tabCount: window.tabs?.filter((tab) => (tab as { groupId?: number }).groupId === group.id).length ?? 0,
      })),
  }));
}

/** Tabs whose page has not been observed since it loaded are observed now, so each shows its account. */
async function observeUnseen(tabs: TabMeta[]): Promise<void> {
  const seen = sessionStore.getState().seen;
  const stale = tabs.filter((tab) => tab.documentId !== null && seen[String(tab.tabId)]?.documentId !== tab.documentId && originOf(tab.url) !== null);
  await Promise.all(stale.map((tab) => observeTab(tab)));
}

function toSiteIs(workspace: Workspace, url: string): UiDeparture['toSiteIs'] {
  const origin = originOf(url);
  const policy = origin === null ? undefined : workspace.sites[origin];
  return policy === undefined ? 'outside' : policy.writable ? 'writable' : 'read_only';
}

/** Tabs that left a workspace by navigating, while the tab is open and still outside it. */
async function departures(): Promise<UiDeparture[]> {
  const workspaces = localStore.getState().workspaces;
  const notices = Object.values(sessionStore.getState().departures).sort((a, b) => a.at - b.at);
  const shown = await Promise.all(
    notices.map(async (notice): Promise<UiDeparture | null> => {
      const workspace = workspaces[notice.workspaceId];
      const tab = await readTabMeta(notice.tabId);
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

async function uiState(): Promise<UiState> {
  const state = localStore.getState();
  const view = await readView();
  // Workspace tabs show their account; the view also shows which adapter read it (Now).
  const shown = await readTabsMeta(Object.values(state.workspaces).flatMap((workspace) => workspace.tabIds));
  await observeUnseen(view && !shown.some((tab) => tab.tabId === view.tabId) ? [...shown, view] : shown);
  const workspaces = await Promise.all(
    Object.values(state.workspaces)
      .sort((a, b) => a.createdAt - b.createdAt)
      .map(async (workspace) => ({
        ...workspace,
        tabs: (await readTabsMeta(workspace.tabIds)).map((tab) => uiTab(tab, view)),
        requestTimeTab: await readRequestTimeTab(workspace.tabIds),
      })),
  );
  const approvals = Object.values(sessionStore.getState().approvals)
    .filter((approval) => approval.decision === 'pending' && approval.expiresAt > Date.now())
    .map(uiApprovalOf);
  if (!state.profile) throw new Error('profile not ready');
  return {
    build: __TETHER_BUILD__,
    profile: state.profile,
    workspaces,
    view: view ? uiTab(view, view) : null,
    programs: Object.values(state.programs).map((program) => {
      const agent = Object.values(state.scheduled).find((item) => item.programId === program.id)?.agent;
      return agent ? { ...program, agent: labelOf(agent) } : program;
    }),
    approvals,
    questions: Object.values(sessionStore.getState().questions)
      .filter((question) => question.decision === 'pending' && question.expiresAt > Date.now())
      .sort((a, b) => a.createdAt - b.createdAt),
    holds: await uiHolds(),
    departures: await departures(),
    connection: connectionStatus(),
    windows: await windows(),
  };
}

async function saveWorkspace(workspace: Workspace): Promise<Workspace> {
  await localStore.setState((state) => ({ workspaces: { ...state.workspaces, [workspace.id]: workspace } }));
  return workspace;
}

/**
 * Changes a workspace as it is in the store at that moment, so a tab event handled meanwhile (a
 * tab closed, a page navigated) is not overwritten by an older copy.
 */
async function changeWorkspace(workspaceId: string, change: (workspace: Workspace) => Workspace): Promise<Outcome<Workspace>> {
  let changed: Workspace | null = null;
  await localStore.setState((state) => {
    const current = state.workspaces[workspaceId];
    if (!current) return {};
    changed = change(current);
    return { workspaces: { ...state.workspaces, [workspaceId]: changed } };
  });
  return changed ? success(changed) : failure(tetherError('unknown_scope', 'No such workspace.', { workspace: workspaceId }));
}

function workspaceOr(workspaceId: string): Outcome<Workspace> {
  const workspace = localStore.getState().workspaces[workspaceId];
  return workspace ? success(workspace) : failure(tetherError('unknown_scope', 'No such workspace.', { workspace: workspaceId }));
}

async function createFromTabs(tabs: TabMeta[], name: string | undefined, source: Workspace['source']): Promise<Outcome<Workspace>> {
  const webTabs = tabs.filter((tab) => originOf(tab.url) !== null);
  if (webTabs.length === 0) return failure(tetherError('target_not_found', 'There are no web pages to put in a workspace here.'));
  return success(await saveWorkspace(newWorkspace({ name: name ?? defaultWorkspaceName(webTabs), source, tabs: webTabs, now: Date.now() })));
}

/** Deleting or unsharing a workspace ends everything agents held in it, at once. */
async function releaseWorkspace(workspaceId: string): Promise<void> {
  await revokeHandles((binding) => binding.workspaceId === workspaceId);
  await dropHolds({ session: sessionStore }, (hold) => hold.workspaceId === workspaceId);
  const state = localStore.getState();
  for (const scheduled of Object.values(state.scheduled).filter((item) => item.workspaceId === workspaceId)) await cancelScheduled(scheduled.id);
  for (const program of Object.values(localStore.getState().programs).filter((item) => item.workspaceId === workspaceId))
    await endProgram(localStore, program.id);
}

type Handler<K extends RuntimeRequest['type']> = (request: Extract<RuntimeRequest, { type: K }>, deps: UiDeps) => Promise<Outcome<RuntimeAnswers[K]>>;

const handlers: { [K in RuntimeRequest['type']]: Handler<K> } = {
  'state.get': async () => success(await uiState()),
  'profile.rename': async (request) => {
    const profile = localStore.getState().profile;
    if (!profile) return failure(tetherError('unknown_scope', 'No profile yet.'));
    const renamed = { ...profile, label: request.label };
    await localStore.setState({ profile: renamed });
    return success(renamed);
  },
  'workspace.createFromWindow': async (request) => {
    const tabs = await browser.tabs.query({ windowId: request.windowId });
    const metas = (await Promise.all(tabs.map(toTabMeta))).filter((tab): tab is TabMeta => tab !== null);
    return createFromTabs(metas, request.name, { kind: 'window', windowId: request.windowId });
  },
  'workspace.createFromGroup': async (request) => {
    const group = await browser.tabGroups.get(request.groupId);
    const tabs = await browser.tabs.query({ groupId: request.groupId } as { windowId?: number });
    const metas = (await Promise.all(tabs.map(toTabMeta))).filter((tab): tab is TabMeta => tab !== null);
    return createFromTabs(metas, request.name ?? (group.title || undefined), { kind: 'group', groupId: request.groupId, windowId: group.windowId });
  },
  'workspace.rename': async (request) => changeWorkspace(request.workspaceId, (workspace) => ({ ...workspace, name: request.name })),
  'workspace.share': async (request) => {
    // Unsharing takes effect first (the workspace leaves agents' scope), then what they held goes.
    const changed = await changeWorkspace(request.workspaceId, (workspace) => ({ ...workspace, shared: request.shared }));
    if (changed.ok && !request.shared) await releaseWorkspace(request.workspaceId);
    return changed;
  },
  'workspace.setSite': async (request) => {
    const origin = originOf(request.origin);
    if (!origin) return failure(tetherError('invalid_request', 'A site is an http(s) origin, like https://blog.example.'));
    const policy = { ...request.policy };
    if (policy.expectedAccount !== undefined && policy.expectedAccount.trim() === '') delete policy.expectedAccount;
    return changeWorkspace(request.workspaceId, (workspace) => ({ ...workspace, sites: { ...workspace.sites, [origin]: policy } }));
  },
  'workspace.addTab': async (request) => {
    const tab = await readTabMeta(request.tabId);
    if (!tab || originOf(tab.url) === null) return failure(tetherError('target_not_found', 'That tab is gone or is not a web page.'));
    const added = await changeWorkspace(request.workspaceId, (workspace) => withTabAdded(workspace, tab));
    // Added back by the person (with its site, read only): the notice that it left has done its work.
    if (added.ok) await forgetDepartures((notice) => notice.workspaceId === request.workspaceId && notice.tabId === request.tabId);
    return added;
  },
  'workspace.removeTab': async (request) => {
    // Out of the workspace first, so no request can use the tab while its handles are revoked.
    const changed = await changeWorkspace(request.workspaceId, (workspace) => withTabRemoved(workspace, request.tabId));
    if (changed.ok) {
      await revokeHandles((binding) => binding.workspaceId === request.workspaceId && binding.tabId === request.tabId);
      await dropHolds({ session: sessionStore }, (hold) => hold.workspaceId === request.workspaceId && hold.tabId === request.tabId);
    }
    return changed;
  },
  'workspace.delete': async (request) => {
    const found = workspaceOr(request.workspaceId);
    if (!found.ok) return found;
    await releaseWorkspace(request.workspaceId);
    await localStore.setState((state) => {
      const { [request.workspaceId]: _deleted, ...rest } = state.workspaces;
      return { workspaces: rest };
    });
    return success({ deleted: request.workspaceId });
  },
  'program.end': async (request) => {
    const scheduled = Object.values(localStore.getState().scheduled).find((item) => item.programId === request.programId);
    if (scheduled) await cancelScheduled(scheduled.id);
    else await endProgram(localStore, request.programId);
    return success({ ended: request.programId });
  },
  'approval.decide': async (request, deps) => {
    if (await deps.decideApproval(request.approvalId, request.approve)) return success({ decided: true });
    // The panel showed it a moment ago: its time ran out, or it was answered elsewhere. Say so.
    return failure(
      tetherError('approval_required', 'This approval is no longer waiting: its time ran out, or it was already answered.', { approval: request.approvalId }),
    );
  },
  'question.answer': async (request, deps) => {
    if (await deps.answerQuestion(request.questionId, request.tabId)) return success({ answered: true });
    return failure(
      tetherError('approval_required', 'This question is no longer waiting: its time ran out, or it was already answered.', { question: request.questionId }),
    );
  },
  'hold.release': async (request, deps) => {
    if (await deps.releaseHold(request.tabId)) return success({ released: request.tabId });
    return failure(tetherError('invalid_request', 'No agent holds this tab now.', { tabId: request.tabId }));
  },
  'departure.dismiss': async (request) => {
    const known = Object.values(sessionStore.getState().departures).some(
      (notice) => notice.workspaceId === request.workspaceId && notice.tabId === request.tabId,
    );
    await forgetDepartures((notice) => notice.workspaceId === request.workspaceId && notice.tabId === request.tabId);
    return success({ dismissed: known });
  },
  'journal.list': async (request) => success(await listJournal({ limit: request.limit, ...(request.workspaceId ? { workspaceId: request.workspaceId } : {}) })),
  'journal.get': async (request) => success(await getJournalRecord(request.recordId)),
  'journal.export': async () => {
    const jsonl = await exportJournal();
    return success({ jsonl, count: jsonl === '' ? 0 : jsonl.trimEnd().split('\n').length });
  },
  'connection.set': async (request) => success(await setPairing(request.token, request.port)),
  'connection.forget': async () => success(await forgetPairing()),
  'connection.reconnect': async () => success(await reconnect()),
  'agent.request': async (request, deps) =>
    success(
      await deps.handleAgentRequest(
        { tool: request.tool as AgentRequest['tool'], args: request.args },
        // The person's own pages may say which agent a request speaks for (the tests play several).
        request.as ? { name: request.as.name, id: shortIdOf(request.as.session), session: `page:${request.as.session}` } : undefined,
      ),
    ),
};

export async function handleUiRequest(request: RuntimeRequest, deps: UiDeps): Promise<Outcome<unknown>> {
  const handler = handlers[request.type] as Handler<typeof request.type>;
  const answer = await handler(request as never, deps);
  if (request.type !== 'state.get' && !request.type.startsWith('journal.')) deps.notify();
  return answer;
}
