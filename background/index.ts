/**
 * Tether's service worker. Every listener is registered synchronously at the top level, so an
 * event that wakes a stopped worker is delivered; every handler awaits hydration before it reads
 * state. Nothing authoritative lives only in these module globals.
 */
import browser, { type Runtime } from 'webextension-polyfill';
import { newId } from '../shared/ids.ts';
import type { JournalRecord } from '../shared/model/journalRecord.ts';
import type { AgentRequest } from '../shared/agent/agentProtocol.ts';
import { JOURNAL_NOTICE_MS } from '../shared/extension/uiProtocol.ts';
import { KEEPER_CHANNEL } from '../shared/extension/keeperProtocol.ts';
import { RECONNECT_ALARM, connect, ensureConnected, nativeProfileChanged, registerAgentConnection, startNative } from './adapters/agentConnection.ts';
import { actRecords } from './state/actRecords.ts';
import { browserApprovals, browserQuestions, updateBadge } from './adapters/approvalBadge.ts';
import { askPage } from './adapters/askPage.ts';
import { fetchImage } from './adapters/fetchImage.ts';
import { browserUiContext } from './adapters/uiContext.ts';
import { readRequestTimeTab, readTabMeta, readTabsMeta, readView, toTabMeta } from './adapters/browserTabs.ts';
import { getHandle, mintHandle, rememberInspection } from './state/handles.ts';
import { createHarness, type RequestVia } from './harness.ts';
import { indexedDbJournal } from './state/journal.ts';
import { observeTab } from './adapters/observeTab.ts';
import { notifyPages } from './adapters/pageEvents.ts';
import { coalescedNotice } from './core/coalescedNotice.ts';
import { isOwnPage, registerRuntimeChannel } from './uiChannel.ts';
import { catchUpScheduled, onSchedulerAlarm, scheduleAct } from './adapters/scheduler.ts';
import { forgetSessionWhenCleared, localStore, ready, sessionStore } from './state/store.ts';
import { tabReservations } from './core/tabReservations.ts';
import { releaseTab, sessionsEnded } from './core/holdStore.ts';
import type { AgentSession } from '../shared/agent/agentIdentity.ts';
import type { ToolContext } from './toolContext.ts';
import { TOOL_HANDLERS } from './tools/registry.ts';
import { forgetDepartures, noteDepartures } from './state/departures.ts';
import { forgetTopCommits, noteTopCommit } from './adapters/topCommits.ts';
import { keepSurvivingMembers, onTabClosed, onTabGroupChanged, onTabNavigated, onTabReplaced, type Departure } from './core/workspaces.ts';

/** Firefox alone has `runtime.getBrowserInfo`: the first label of a profile says which browser it is. */
function browserName(): string {
  return typeof (browser.runtime as { getBrowserInfo?: unknown }).getBrowserInfo === 'function' ? 'Firefox' : 'Chromium';
}

async function ensureProfile(): Promise<void> {
  await ready();
  if (localStore.getState().profile) return;
  await localStore.setState({ profile: { id: newId('pr', 9), label: `${browserName()} profile`, createdAt: Date.now() } });
}

const SESSION_MARKER = 'tether.sessionMarker';

/**
 * Once per browser session (storage.session starts empty): tab ids from the last session may now
 * name other tabs, so workspace members keep their place only where the same tab still shows the
 * same address, and running programs whose target is gone end. Scheduled acts stay, to be refused
 * and journaled at their time.
 */
async function reconcileNewSession(): Promise<void> {
  await ready();
  const { [SESSION_MARKER]: marker } = await browser.storage.session.get(SESSION_MARKER);
  if (marker !== undefined) return;
  const tabs = (await browser.tabs.query({})).flatMap((tab) => (tab.id === undefined ? [] : [{ tabId: tab.id, url: tab.url ?? '' }]));
  const state = localStore.getState();
  const workspaces = keepSurvivingMembers(state.workspaces, tabs);
  const alive = new Map(tabs.map((tab) => [tab.tabId, tab.url]));
  const programs = Object.fromEntries(
    Object.entries(state.programs).filter(([, program]) => program.status === 'scheduled' || alive.get(program.target.tabId) === program.target.url),
  );
  await localStore.setState({ workspaces, programs });
  await browser.storage.session.set({ [SESSION_MARKER]: Date.now() });
}

const profileReady = reconcileNewSession().then(ensureProfile);

/**
 * Open Tether pages reload their journal list when told it changed. While an agent works, records
 * come every few milliseconds, and a reload after each one kept the worker and the page busy just
 * as the agent's next request arrived (on the bench, with the options page open: ~2 ms more per
 * inspect). One notice covers the records of the last moment.
 */
const journalChanged = coalescedNotice(() => notifyPages('journal.changed'), JOURNAL_NOTICE_MS);

function onRecorded(_record: JournalRecord): void {
  journalChanged();
}

const approvals = browserApprovals();
const questions = browserQuestions();

/** What the tools touch, built once: the stores, the session records and the browser adapters. */
const toolContext: ToolContext = {
  local: localStore,
  session: sessionStore,
  handles: { get: getHandle, mint: mintHandle, rememberInspection },
  actRecords,
  tabs: { readTabMeta, readTabsMeta, readView, readRequestTimeTab },
  askPage,
  fetchImage,
  observeTab,
  approvals,
  questions,
  schedule: scheduleAct,
  reservations: tabReservations,
  clock: () => Date.now(),
};

const harness = createHarness({
  ready: async () => {
    await profileReady;
  },
  tools: TOOL_HANDLERS,
  context: toolContext,
  journal: indexedDbJournal,
  onRecorded,
});

function handleAgentRequest(request: AgentRequest, via: RequestVia = 'agent', as?: AgentSession) {
  return harness(request, via, as);
}

registerRuntimeChannel({
  ...browserUiContext(),
  ready: () => profileReady,
  handleAgentRequest: (request, as) => handleAgentRequest(request, 'ui', as),
  notify: () => notifyPages('state.changed'),
  decideApproval: (id, approve) => approvals.decide(id, approve),
  answerQuestion: (id, tabId) => questions.answer(id, tabId),
  releaseHold: async (tabId) => (await releaseTab(toolContext, tabId, null)).ok,
});
registerAgentConnection(
  handleAgentRequest,
  () => notifyPages('state.changed'),
  async () => {
    await profileReady;
    const profile = localStore.getState().profile;
    if (!profile) throw new Error('no profile');
    return { id: profile.id, label: profile.label };
  },
  // Their bridges went away: what those agents held is released (an act running keeps its tab until it is recorded).
  (sessions) => {
    void profileReady.then(() => sessionsEnded(toolContext, sessions)).then(() => notifyPages('state.changed'));
  },
);
// The native port opens at every worker start, before anything else: the browser starts the host
// (~80 ms) while the stores load, and the open port keeps this worker alive.
startNative();
localStore.subscribe((state, previous) => {
  if (state.profile && state.profile.label !== previous.profile?.label) nativeProfileChanged({ id: state.profile.id, label: state.profile.label });
});
// The keeper (keeper.ts) wakes a worker that was stopped by force: the wake itself is the point.
browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => {
  if (typeof message !== 'object' || message === null || (message as { channel?: unknown }).channel !== KEEPER_CHANNEL || !isOwnPage(sender)) return undefined;
  startNative();
  return undefined;
});

forgetSessionWhenCleared();

browser.runtime.onInstalled.addListener(() => {
  startNative();
  void profileReady.then(() => connect());
});
browser.runtime.onStartup.addListener(() => {
  startNative();
  void catchUpScheduled(toolContext, indexedDbJournal, onRecorded);
  void connect();
});

const schedulerAlarm = onSchedulerAlarm(toolContext, indexedDbJournal, onRecorded);
browser.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === RECONNECT_ALARM) return ensureConnected();
  return schedulerAlarm(alarm);
});

/** Membership follows the tabs: closed, replaced, navigated (to a site the workspace has), regrouped. */
async function updateWorkspaces(
  change: (workspaces: ReturnType<typeof localStore.getState>['workspaces']) => ReturnType<typeof localStore.getState>['workspaces'],
): Promise<void> {
  await ready();
  const before = localStore.getState().workspaces;
  const after = change(before);
  if (after !== before) {
    await localStore.setState({ workspaces: after });
    notifyPages('state.changed');
  }
}

browser.tabs.onRemoved.addListener((tabId) => {
  void updateWorkspaces((workspaces) => onTabClosed(workspaces, tabId));
  void forgetTopCommits(tabId);
  void ready().then(async () => {
    await sessionStore.setState((state) => {
      const { [String(tabId)]: _gone, ...seen } = state.seen;
      return { seen };
    });
    await forgetDepartures((notice) => notice.tabId === tabId);
  });
});
browser.tabs.onReplaced.addListener((addedTabId, removedTabId) => {
  void updateWorkspaces((workspaces) => onTabReplaced(workspaces, addedTabId, removedTabId));
});
browser.tabs.onUpdated.addListener((tabId, changeInfo, tab) => {
  const groupChanged = (changeInfo as { groupId?: number }).groupId !== undefined;
  if (changeInfo.url !== undefined) {
    const url = changeInfo.url;
    // A tab that went to another site (one its workspace has or not) leaves it; the person is told in the panel.
    let departures: Departure[] = [];
    void updateWorkspaces((workspaces) => {
      const moved = onTabNavigated(workspaces, tabId, url);
      departures = moved.departures;
      return moved.workspaces;
    })
      .then(() => noteDepartures(departures, Date.now()))
      .then(() => {
        if (departures.length > 0) notifyPages('state.changed');
      });
  }
  if (groupChanged) {
    void toTabMeta(tab).then((meta) => {
      if (meta) void updateWorkspaces((workspaces) => onTabGroupChanged(workspaces, meta));
    });
  }
  if (changeInfo.status !== undefined || changeInfo.title !== undefined) notifyPages('state.changed');
});
browser.tabs.onActivated.addListener(() => notifyPages('state.changed'));
// Where the browser gives no documentIds, each top-frame commit names a new document (topCommits.ts).
browser.webNavigation.onCommitted.addListener((details) => {
  void noteTopCommit(details);
});

// The worker woke up (an event, the reconnect alarm, a message): restore what the session shows.
void profileReady.then(async () => {
  // Nobody waits for a question a stopped worker left: the request that asked ended with it.
  if (Object.keys(sessionStore.getState().questions).length > 0) await sessionStore.setState({ questions: {} });
  // A page that asked before the profile existed (Firefox opens the sidebar at install) asks again.
  notifyPages('state.changed');
  await updateBadge();
  await connect();
});
