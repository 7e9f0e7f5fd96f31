/**
 * A ToolContext for unit tests, with no browser: in-memory zustand stores, handles and act records
 * in maps, tabs from a list, pages answering from a script, the real approval rules over the
 * in-memory session, and a clock the test moves. Everything the tools asked of pages is kept in
 * `asked`, everything scheduled in `scheduled`.
 */
import { createStore } from 'zustand/vanilla';
import { failure, success, tetherError, type Outcome } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { UNNAMED_AGENT, type AgentSession } from '../../shared/agent/agentIdentity.ts';
import type { TabMeta, TargetBinding, Workspace } from '../../shared/model/targetModel.ts';
import { claimTab } from '../core/holdStore.ts';
import type { PageAnswers } from '../../shared/page/pageProtocol.ts';
import { PROFILE } from '../../shared/testing/fixtures.ts';
import type { ActRecord } from '../state/actRecords.ts';
import { createApprovals, type Approvals } from '../core/approvals.ts';
import { createQuestions, type Questions } from '../core/questions.ts';
import type { PageRequestBody } from '../adapters/askPage.ts';
import type { HandleRecord } from '../state/handles.ts';
import { keepScheduledAct } from '../core/scheduledAct.ts';
import type { LocalState, ScheduledAct, SessionState } from '../state/store.ts';
import { createTabReservations } from '../core/tabReservations.ts';
import type { AskPage, ToolContext } from '../toolContext.ts';

const HANDLE_TTL_MS = 2 * 60 * 60 * 1000;

type RequestOf<K extends keyof PageAnswers> = Extract<PageRequestBody, { type: K }>;
type PageHandler<K extends keyof PageAnswers> = (request: RequestOf<K>, tabId: number) => Outcome<PageAnswers[K]> | Promise<Outcome<PageAnswers[K]>>;
/** How the pages answer, by request type; what is not given answers as a page that has it all. */
export type PageScript = { [K in keyof PageAnswers]?: PageHandler<K> };

export interface Asked {
  tabId: number;
  documentId: string;
  request: PageRequestBody;
}

export interface FakeToolContext extends ToolContext {
  /** A write handle as resolve mints it: under a hold the agent (default: a trace's unnamed agent) takes on its tab. */
  mintWrite(binding: TargetBinding, elements?: Record<string, string>, agent?: AgentSession): Promise<string>;
  now: number;
  tabList: TabMeta[];
  view: TabMeta | null;
  requestTimeTabId: number | null;
  page: PageScript;
  asked: Asked[];
  /** What fetchImage finds at each address (a reference page's images). */
  images: Map<string, Uint8Array<ArrayBuffer>>;
  handleRecords: Map<string, HandleRecord>;
  actRecordMap: Map<string, ActRecord>;
  scheduled: ScheduledAct[];
  approvals: Approvals;
  questions: Questions;
}

/** What every answer of the default page says about itself: signed in as alice, no draft. */
const defaultPageState = (): Omit<PageAnswers['observe'], 'fieldElements'> => ({
  url: '',
  title: '',
  pageInstance: 'pg_1',
  adapter: 'generic',
  signIn: { state: 'signed_in', account: 'alice', via: 'generic' },
  draft: { inProgress: false, reasons: [] },
});

/** A page that is signed in as alice, has no draft, and runs every plan it is given. */
export const DEFAULT_PAGE: { [K in keyof PageAnswers]: (request: RequestOf<K>, tabId: number) => Outcome<PageAnswers[K]> } = {
  observe: (_request, tabId) => success({ ...defaultPageState(), fieldElements: { body: `el-${tabId}-body` } }),
  inspect: () => success({ ...defaultPageState(), fieldElements: {}, fields: [], actions: [], readable: [] }),
  act: (request) =>
    success({
      ok: true,
      dryRun: request.dryRun,
      steps: request.dryRun
        ? []
        : request.plan.steps.map((step, index) => ({ step: index, op: step.op, target: step.op === 'click' ? step.action : step.field, verified: true })),
      clicks: request.plan.steps.flatMap((step, index) =>
        step.op === 'click'
          ? [
              {
                step: index,
                action: step.action,
                kind: step.action === 'publish' ? ('publish' as const) : ('other' as const),
                element: `el-${index}`,
                label: step.action,
                fingerprint: `fp-${index}`,
              },
            ]
          : [],
      ),
      url: 'https://blog.example/write',
    }),
  actStatus: () => success({ state: 'unknown' }),
  stageImage: () => success({ stored: true }),
  image: () => failure(tetherError('invalid_request', 'This page shows no such image.')),
};

async function answer<R extends PageRequestBody>(script: PageScript, request: R, tabId: number): Promise<Outcome<PageAnswers[R['type']]>> {
  const type: R['type'] = request.type;
  // The script is keyed by request type; TypeScript cannot follow that key from a request to its handler.
  const handler = (script[type] ?? DEFAULT_PAGE[type]) as unknown as (
    request: R,
    tabId: number,
  ) => Outcome<PageAnswers[R['type']]> | Promise<Outcome<PageAnswers[R['type']]>>;
  return handler(request, tabId);
}

export function fakeToolContext(options: { workspaces?: Workspace[]; tabs?: TabMeta[]; now?: number } = {}): FakeToolContext {
  const workspaces = Object.fromEntries((options.workspaces ?? []).map((workspace) => [workspace.id, workspace]));
  const local = createStore<LocalState>()(() => ({
    profile: { id: PROFILE, label: 'Chromium profile', createdAt: 0 },
    workspaces,
    programs: {},
    scheduled: {},
    connection: { token: null, port: 17345 },
  }));
  const session = createStore<SessionState>()(() => ({ approvals: {}, seen: {}, departures: {}, holds: {}, questions: {}, agentIds: {} }));

  const askPage: AskPage = async (tabId, documentId, request) => {
    context.asked.push({ tabId, documentId, request });
    const tab = context.tabList.find((item) => item.tabId === tabId);
    // Messages reach only the bound document: another one (navigated, closed) never answers.
    if (!tab || tab.documentId !== documentId) return failure(tetherError('context_changed', 'The page is gone.', { changed: ['document'] }));
    return answer(context.page, request, tabId);
  };

  const context: FakeToolContext = {
    now: options.now ?? 1_700_000_000_000,
    tabList: options.tabs ?? [],
    view: null,
    requestTimeTabId: null,
    page: {},
    asked: [],
    images: new Map(),
    handleRecords: new Map(),
    actRecordMap: new Map(),
    scheduled: [],
    local,
    session,
    handles: {
      get: async (token) => context.handleRecords.get(token) ?? null,
      mint: async (binding, requestId, now, elements = {}, hold) => {
        const token = newId('th', 18);
        context.handleRecords.set(token, {
          binding,
          mintedAt: now,
          expiresAt: now + HANDLE_TTL_MS,
          inspected: null,
          elements,
          requestId,
          ...(hold !== undefined ? { hold } : {}),
        });
        return token;
      },
      rememberInspection: async (token, fields, elements) => {
        const record = context.handleRecords.get(token);
        if (record) context.handleRecords.set(token, { ...record, inspected: fields, elements });
      },
    },
    actRecords: {
      get: async (requestId) => context.actRecordMap.get(requestId) ?? null,
      put: async (requestId, record) => void context.actRecordMap.set(requestId, record),
    },
    tabs: {
      readTabMeta: async (tabId) => context.tabList.find((tab) => tab.tabId === tabId) ?? null,
      readTabsMeta: async (tabIds) => context.tabList.filter((tab) => tabIds.includes(tab.tabId)),
      readView: async () => context.view,
      readRequestTimeTab: async (memberTabIds) =>
        context.requestTimeTabId !== null && memberTabIds.includes(context.requestTimeTabId) ? context.requestTimeTabId : null,
    },
    askPage,
    fetchImage: async (url) => {
      const bytes = context.images.get(url);
      return bytes
        ? success(bytes)
        : failure(tetherError('invalid_request', 'The image could not be loaded again from the page’s address (HTTP 404).', { url }));
    },
    observeTab: async (tab) => {
      if (tab.documentId === null)
        return failure(tetherError('context_changed', 'The tab has no loaded page (discarded or loading).', { changed: ['document'] }));
      return askPage(tab.tabId, tab.documentId, { type: 'observe' });
    },
    approvals: createApprovals({ session, changed: async () => undefined, keepAlive: () => undefined, clock: () => context.now }),
    questions: createQuestions({ session, changed: async () => undefined, keepAlive: () => undefined, clock: () => context.now }),
    schedule: async (input, dueAt, now) => {
      // As the worker keeps it (core/scheduledAct.ts), without the browser's alarm.
      const scheduled = await keepScheduledAct(local, input, dueAt, now);
      context.scheduled.push(scheduled);
      return scheduled;
    },
    reservations: createTabReservations(),
    clock: () => context.now,
    mintWrite: async (binding, elements = {}, agent = UNNAMED_AGENT) => {
      const claimed = await claimTab(context, { tabId: binding.tabId, workspaceId: binding.workspaceId, agent });
      if (!claimed.ok) throw new Error(`tab ${binding.tabId} is held by ${claimed.heldBy.agent.name}`);
      return context.handles.mint(binding, 'rq_resolve', context.now, elements, claimed.hold.id);
    },
  };
  return context;
}
