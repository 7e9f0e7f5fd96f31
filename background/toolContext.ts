/**
 * What the four tools (and the act's run, which scheduled acts share) may touch, handed to them by
 * the harness: state, handles, act records, the browser's tabs, the page channel, approvals, the
 * scheduler, the per-tab reservations and the clock. The service worker builds the real one once
 * (index.ts); unit tests build a fake (testing/fakeToolContext.ts). Only types are imported here,
 * so a tool that takes its context loads no store and no browser API.
 */
import type { Outcome } from '../shared/errors.ts';
import type { TabMeta, TargetBinding } from '../shared/model/targetModel.ts';
import type { PageAnswers, PageObservation } from '../shared/page/pageProtocol.ts';
import type { ActRecord } from './state/actRecords.ts';
import type { ApprovalDecision, ApprovalRequest } from './core/approvals.ts';
import type { Questions } from './core/questions.ts';
import type { PageRequestBody } from './adapters/askPage.ts';
import type { HandleRecord } from './state/handles.ts';
import type { ActInput, StateAccess } from './core/contracts.ts';
import type { LocalState, ScheduledAct, SessionState } from './state/store.ts';
import type { TabReservations } from './core/tabReservations.ts';

export type { StateAccess } from './core/contracts.ts';

/** The page channel: one request to one exact document, answered or refused. */
export type AskPage = <R extends PageRequestBody>(
  tabId: number,
  documentId: string,
  request: R,
  timeoutMs?: number,
) => Promise<Outcome<PageAnswers[R['type']]>>;

export interface ToolContext {
  /** What the person decided: profile, workspaces, programs, scheduled acts. */
  local: StateAccess<LocalState>;
  /** What this browser session saw (accounts per tab), and approvals. */
  session: StateAccess<SessionState>;
  handles: {
    get(token: string): Promise<HandleRecord | null>;
    /** `hold`: the hold a write handle is minted under (it writes only while that hold lasts). */
    mint(binding: TargetBinding, requestId: string, now: number, elements?: Record<string, string>, hold?: string): Promise<string>;
    rememberInspection(token: string, fields: Record<string, string>, elements: Record<string, string>): Promise<void>;
  };
  /** What became of each act, by request id (retries get the answer given before). */
  actRecords: {
    get(requestId: string): Promise<ActRecord | null>;
    put(requestId: string, record: ActRecord): Promise<void>;
  };
  tabs: {
    readTabMeta(tabId: number): Promise<TabMeta | null>;
    readTabsMeta(tabIds: readonly number[]): Promise<TabMeta[]>;
    readView(): Promise<TabMeta | null>;
    readRequestTimeTab(memberTabIds: readonly number[]): Promise<number | null>;
  };
  askPage: AskPage;
  /** A reference page's image, again from the address the page (at `page`) shows it from (adapters/fetchImage.ts). */
  fetchImage(url: string, page: string): Promise<Outcome<Uint8Array<ArrayBuffer>>>;
  /** Asks one chosen tab's page for sign-in, account and drafts, and keeps what it showed. */
  observeTab(tab: TabMeta): Promise<Outcome<PageObservation>>;
  approvals: {
    request(request: ApprovalRequest, timeoutMs: number): Promise<ApprovalDecision>;
  };
  /** The person's choice among candidates, for a resolve that asks. */
  questions: Pick<Questions, 'ask'>;
  /** Keeps an act to run at `dueAt`, under a program of its own. */
  schedule(input: ActInput, dueAt: number, now: number): Promise<ScheduledAct>;
  /** One act at a time per tab, and one run per request id in flight (holds count a tab with an act running as in use). */
  reservations: TabReservations;
  clock(): number;
}
