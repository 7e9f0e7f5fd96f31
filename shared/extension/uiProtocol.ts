/**
 * The channel from Tether's own pages (side panel, popup, options) to the service worker: one
 * discriminated union, parsed by the worker, answered with an Outcome. The worker accepts these
 * only from its own extension pages (decided from `sender`, never from the payload).
 */
import { z } from 'zod';
import type { AgentLabel } from '../agent/agentIdentity.ts';
import type { UiApproval } from '../model/approval.ts';
import type { Question } from '../model/question.ts';
import type { JournalRecord } from '../model/journalRecord.ts';
import type { Profile, Program, Workspace } from '../model/targetModel.ts';
import { sitePolicySchema } from '../model/targetModelSchemas.ts';
import type { AnyToolEnvelope } from '../agent/agentProtocol.ts';
import { TOKEN_MAX_LENGTH, TOKEN_MIN_LENGTH } from '../link/bridgePort.ts';

export const RUNTIME_CHANNEL = 'tether.runtime';
export const UI_EVENT_CHANNEL = 'tether.ui';
/** At most this long after a journal record is saved, open pages are told the journal changed (one notice per burst). */
export const JOURNAL_NOTICE_MS = 150;

/** Limits the pages' inputs share with the schema below (maxLength, minLength, min/max). */
export const NAME_MAX_LENGTH = 80;
export { TOKEN_MIN_LENGTH } from '../link/bridgePort.ts';
export const PAIRING_PORT_RANGE = { min: 1024, max: 65535 } as const;

const name = z.string().trim().min(1).max(NAME_MAX_LENGTH);
const id = z.string().min(1).max(200);
const tabId = z.number().int().nonnegative();

export const runtimeRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('state.get') }),
  z.object({ type: z.literal('profile.rename'), label: name }),
  z.object({ type: z.literal('workspace.createFromWindow'), windowId: z.number().int(), name: name.optional() }),
  z.object({ type: z.literal('workspace.createFromGroup'), groupId: z.number().int().nonnegative(), name: name.optional() }),
  z.object({ type: z.literal('workspace.rename'), workspaceId: id, name }),
  z.object({ type: z.literal('workspace.share'), workspaceId: id, shared: z.boolean() }),
  z.object({ type: z.literal('workspace.setSite'), workspaceId: id, origin: z.string().min(1).max(300), policy: sitePolicySchema }),
  z.object({ type: z.literal('workspace.addTab'), workspaceId: id, tabId }),
  z.object({ type: z.literal('workspace.removeTab'), workspaceId: id, tabId }),
  z.object({ type: z.literal('workspace.delete'), workspaceId: id }),
  z.object({ type: z.literal('program.end'), programId: id }),
  z.object({ type: z.literal('approval.decide'), approvalId: id, approve: z.boolean() }),
  /** The person's answer to an agent's question: one of its candidate tabs, or null to decline. */
  z.object({ type: z.literal('question.answer'), questionId: id, tabId: tabId.nullable() }),
  /** The person takes a tab back from the agent that holds it. */
  z.object({ type: z.literal('hold.release'), tabId }),
  z.object({ type: z.literal('departure.dismiss'), workspaceId: id, tabId }),
  z.object({ type: z.literal('journal.list'), workspaceId: id.optional(), limit: z.number().int().min(1).max(500) }),
  z.object({ type: z.literal('journal.get'), recordId: id }),
  z.object({ type: z.literal('journal.export') }),
  z.object({
    type: z.literal('connection.set'),
    token: z.string().trim().min(TOKEN_MIN_LENGTH).max(TOKEN_MAX_LENGTH),
    port: z.number().int().min(PAIRING_PORT_RANGE.min).max(PAIRING_PORT_RANGE.max).optional(),
  }),
  z.object({ type: z.literal('connection.forget') }),
  z.object({ type: z.literal('connection.reconnect') }),
  /**
   * An agent request from an extension page (used by tests and the person's own tools); `as` names
   * the agent it speaks for (default: "Tether page"). Only Tether's own pages can send this.
   */
  z.object({
    type: z.literal('agent.request'),
    tool: z.string().max(40),
    args: z.unknown(),
    as: z.object({ name: z.string().min(1).max(80), session: z.string().min(1).max(64) }).optional(),
  }),
]);
export type RuntimeRequest = z.infer<typeof runtimeRequestSchema>;

export interface UiTab {
  tabId: number;
  title: string;
  url: string;
  site: string;
  origin: string | null;
  account: string | null;
  signIn: 'signed_in' | 'signed_out' | 'unknown';
  /** Who read the page when it was last observed: a site adapter's id, "generic", or null (not read). */
  adapter: string | null;
  /** Set when the site's adapter did not match the page and the generic model read (some of) it. */
  adapterProblem: string | null;
  active: boolean;
  isView: boolean;
}

export interface UiWorkspace extends Workspace {
  tabs: UiTab[];
  requestTimeTab: number | null;
}

export interface UiWindow {
  windowId: number;
  focused: boolean;
  tabCount: number;
  groups: Array<{ groupId: number; title: string; color: string; tabCount: number }>;
}

/**
 * The native path (see background/nativeLink.ts): `connected` once the host answered (`bridges`
 * says how many agent servers reach the browser through it); `not_installed` / `forbidden` /
 * `crashed` in the browser's own words, with the one command that installs the host.
 */
export interface NativeStatus {
  state: 'starting' | 'connected' | 'not_installed' | 'forbidden' | 'crashed' | 'unsupported';
  bridges: number;
  detail: string | null;
  since: number | null;
  installCommand: string;
  /** Messages from the host that were refused as not Tether's. */
  refused: number;
}

export interface ConnectionStatus {
  paired: boolean;
  port: number;
  /** The WebSocket fallback; `standby` while the native host serves. */
  state: 'not_paired' | 'connecting' | 'connected' | 'refused' | 'offline' | 'standby';
  /** What the bridge said about itself when connected (name, version). */
  server: string | null;
  detail: string | null;
  since: number | null;
  native: NativeStatus;
  /**
   * The direct link while the native host serves: a WebSocket to the bridge that holds the loopback
   * port, offered by the host with the token it shares with its bridges; requests from that bridge
   * skip the host process. `not_paired` when none is offered.
   */
  direct: { port: number | null; state: ConnectionStatus['state'] };
}

/** A tab that left a workspace because it went to a site the workspace did not have. */
export interface UiDeparture {
  workspaceId: string;
  workspaceName: string;
  tabId: number;
  /** The tab's title now (or its address). */
  title: string;
  fromSite: string;
  toSite: string;
  /**
   * The site it went to, as the workspace has it now: `outside` (added back, it comes in read
   * only), or another of the workspace's own sites, `writable` or `read_only` (a page can send
   * its tab there by itself; added back, it is what the site allows).
   */
  toSiteIs: 'outside' | 'writable' | 'read_only';
  at: number;
}

/** A tab an agent's task holds, as the panel shows it (with Release). */
export interface UiHold {
  tabId: number;
  workspaceId: string;
  title: string;
  site: string;
  agent: AgentLabel;
  since: number;
  task?: string;
}

/** A program, and for a scheduled act the agent that scheduled it. */
export type UiProgram = Program & { agent?: AgentLabel };

export interface UiState {
  /** The build of the worker that answered (see vite.config.ts): a stale cached worker shows here. */
  build: string;
  profile: Profile;
  workspaces: UiWorkspace[];
  view: UiTab | null;
  programs: UiProgram[];
  approvals: UiApproval[];
  /** Agents' questions waiting for the person's choice. */
  questions: Question[];
  /** Which agent's task holds which tab now. */
  holds: UiHold[];
  departures: UiDeparture[];
  connection: ConnectionStatus;
  windows: UiWindow[];
}

/** What each request answers. */
export interface RuntimeAnswers {
  'state.get': UiState;
  'profile.rename': Profile;
  'workspace.createFromWindow': Workspace;
  'workspace.createFromGroup': Workspace;
  'workspace.rename': Workspace;
  'workspace.share': Workspace;
  'workspace.setSite': Workspace;
  'workspace.addTab': Workspace;
  'workspace.removeTab': Workspace;
  'workspace.delete': { deleted: string };
  'program.end': { ended: string };
  /** A failure (`approval_required`) when the approval is no longer waiting. */
  'approval.decide': { decided: true };
  /** A failure (`approval_required`) when the question is no longer waiting. */
  'question.answer': { answered: true };
  /** A failure (`invalid_request`) when nobody holds the tab. */
  'hold.release': { released: number };
  'departure.dismiss': { dismissed: boolean };
  'journal.list': JournalRecord[];
  'journal.get': JournalRecord | null;
  'journal.export': { jsonl: string; count: number };
  'connection.set': ConnectionStatus;
  'connection.forget': ConnectionStatus;
  'connection.reconnect': ConnectionStatus;
  'agent.request': AnyToolEnvelope;
}

/** Pushed from the worker to open Tether pages when something they show changed. */
export type UiEvent = { channel: typeof UI_EVENT_CHANNEL; type: 'state.changed' | 'journal.changed' | 'approval.pending' };
