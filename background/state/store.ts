/**
 * The service worker's state: two zustand vanilla stores, persisted through `chrome.storage`.
 *
 * - `localStore` (storage.local): what the person decided — profile, workspaces, programs,
 *   scheduled acts, pairing. It survives browser restarts.
 * - `sessionStore` (storage.session): approvals and what pages showed. It survives the worker
 *   being stopped, not a browser restart. (Handles and act records are many small records, kept
 *   each under its own storage.session key: see sessionRecords.ts.)
 *
 * The worker can be stopped at any moment, so nothing authoritative lives only in globals:
 * every handler awaits `ready()` (hydration) first and awaits its `setState` (the write).
 */
import browser from 'webextension-polyfill';
import { z } from 'zod';
import { persist } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';
import { agentSessionSchema, type AgentSession } from '../../shared/agent/agentIdentity.ts';
import { approvalSchema, type Approval } from '../../shared/model/approval.ts';
import { DEFAULT_BRIDGE_PORT } from '../../shared/link/bridgeProtocol.ts';
import type { ClickPin } from '../../shared/page/elementBinding.ts';
import type { Profile, Program, TargetBinding, Workspace } from '../../shared/model/targetModel.ts';
import { profileSchema, programSchema, targetBindingSchema, workspaceSchema } from '../../shared/model/targetModelSchemas.ts';
import { planSchema, type Plan } from '../../shared/agent/agentProtocol.ts';
import { questionSchema, type Question } from '../../shared/model/question.ts';
import type { HoldTable } from '../core/tabHolds.ts';
import type { AgentIdTable } from '../core/agentLabels.ts';
import { chromeStoragePersist, versionKey } from './chromeStoragePersist.ts';

export interface ScheduledAct {
  id: string;
  requestId: string;
  programId: string;
  workspaceId: string;
  binding: TargetBinding;
  plan: Plan;
  inspected: Record<string, string>;
  /** The element each field name meant, and each click's element at the dry run (see elementBinding.ts). */
  elements?: Record<string, string>;
  pins?: ClickPin[];
  /** Publish/submit-type steps were approved when it was scheduled, or the site allows them. */
  mayPublish?: boolean;
  /** The agent that scheduled it: its act holds the tab until it fires (see tabHolds.ts). */
  agent?: AgentSession;
  dueAt: number;
  createdAt: number;
}

export interface ConnectionSettings {
  token: string | null;
  port: number;
}

export interface LocalState {
  profile: Profile | null;
  workspaces: Record<string, Workspace>;
  programs: Record<string, Program>;
  scheduled: Record<string, ScheduledAct>;
  connection: ConnectionSettings;
}

const scheduledActSchema: z.ZodType<ScheduledAct> = z.object({
  id: z.string(),
  requestId: z.string(),
  programId: z.string(),
  workspaceId: z.string(),
  binding: targetBindingSchema,
  plan: planSchema,
  inspected: z.record(z.string(), z.string()),
  elements: z.record(z.string(), z.string()).optional(),
  pins: z.array(z.object({ step: z.number().int().nonnegative(), element: z.string(), label: z.string(), fingerprint: z.string() })).optional(),
  mayPublish: z.boolean().optional(),
  agent: agentSessionSchema.optional(),
  dueAt: z.number(),
  createdAt: z.number(),
});

const localStateSchema = z.object({
  profile: profileSchema.nullable(),
  workspaces: z.record(z.string(), workspaceSchema),
  programs: z.record(z.string(), programSchema),
  scheduled: z.record(z.string(), scheduledActSchema),
  connection: z.object({ token: z.string().nullable(), port: z.number().int().min(1).max(65535) }),
});

export const LOCAL_STATE_VERSION = 1;

function initialLocalState(): LocalState {
  return {
    profile: null,
    workspaces: {},
    programs: {},
    scheduled: {},
    connection: { token: null, port: DEFAULT_BRIDGE_PORT },
  };
}

/**
 * Stored data is checked after migrations: a value that does not fit is dropped piece by piece
 * (a bad workspace is lost, not the whole state), and the profile id is kept whenever it is valid.
 */
export function mergeStoredLocal(persisted: unknown, current: LocalState): LocalState {
  const whole = localStateSchema.safeParse(persisted);
  if (whole.success) return { ...current, ...whole.data };
  const loose = z.record(z.string(), z.unknown()).safeParse(persisted);
  if (!loose.success) return current;
  const pickRecord = <T>(value: unknown, schema: z.ZodType<T>): Record<string, T> => {
    const out: Record<string, T> = {};
    const record = z.record(z.string(), z.unknown()).safeParse(value);
    if (!record.success) return out;
    for (const [key, item] of Object.entries(record.data)) {
      const parsed = schema.safeParse(item);
      if (parsed.success) out[key] = parsed.data;
    }
    return out;
  };
  const profile = profileSchema.safeParse(loose.data.profile);
  const connection = localStateSchema.shape.connection.safeParse(loose.data.connection);
  return {
    profile: profile.success ? profile.data : current.profile,
    workspaces: pickRecord(loose.data.workspaces, workspaceSchema),
    programs: pickRecord(loose.data.programs, programSchema),
    scheduled: pickRecord(loose.data.scheduled, scheduledActSchema),
    connection: connection.success ? connection.data : current.connection,
  };
}

export const localStore = createStore<LocalState>()(
  persist(() => initialLocalState(), {
    name: 'tether.state',
    version: LOCAL_STATE_VERSION,
    storage: chromeStoragePersist<LocalState>('local'),
    // Version 0 never shipped; later versions add their steps here.
    migrate: (persisted) => persisted as LocalState,
    merge: mergeStoredLocal,
  }),
);

export interface SeenAccount {
  state: 'signed_in' | 'signed_out' | 'unknown';
  account: string | null;
  documentId: string | null;
  at: number;
  /** Who read the page (a site adapter's id or "generic"), and why not the adapter that claims it. */
  adapter?: string;
  adapterProblem?: string;
}

/** A tab that left a workspace because it went to a site the workspace did not have (see workspaces.ts). */
export interface DepartureNotice {
  workspaceId: string;
  tabId: number;
  fromUrl: string;
  toUrl: string;
  at: number;
}

export interface SessionState {
  approvals: Record<string, Approval>;
  /** What each tab's page showed about sign-in (and who read it) when last observed, for the person's UI. */
  seen: Record<string, SeenAccount>;
  /** Tabs that left a workspace by navigating, until the person adds them back or dismisses the notice. */
  departures: Record<string, DepartureNotice>;
  /** Which agent's task holds each write target (see core/tabHolds.ts), by tab id. */
  holds: HoldTable;
  /** Agents' questions waiting for the person (see core/questions.ts). */
  questions: Record<string, Question>;
  /** Which session key shows each agent id (see core/agentLabels.ts). */
  agentIds: AgentIdTable;
}

const holdSchema = z.object({
  id: z.string(),
  tabId: z.number().int(),
  workspaceId: z.string(),
  agent: agentSessionSchema,
  since: z.number(),
  usedAt: z.number(),
  task: z.string().optional(),
  ending: z.literal(true).optional(),
});

const sessionStateSchema = z.object({
  approvals: z.record(z.string(), approvalSchema),
  seen: z.record(
    z.string(),
    z.object({
      state: z.enum(['signed_in', 'signed_out', 'unknown']),
      account: z.string().nullable(),
      documentId: z.string().nullable(),
      at: z.number(),
      adapter: z.string().optional(),
      adapterProblem: z.string().optional(),
    }),
  ),
  departures: z
    .record(z.string(), z.object({ workspaceId: z.string(), tabId: z.number(), fromUrl: z.string(), toUrl: z.string(), at: z.number() }))
    .default({}),
  holds: z.record(z.string(), holdSchema).default({}),
  questions: z.record(z.string(), questionSchema).default({}),
  agentIds: z.record(z.string().max(16), z.object({ session: z.string().max(64), at: z.number() })).default({}),
});

const SESSION_KEY = 'tether.session';

function initialSessionState(): SessionState {
  return { approvals: {}, seen: {}, departures: {}, holds: {}, questions: {}, agentIds: {} };
}

export const sessionStore = createStore<SessionState>()(
  persist(() => initialSessionState(), {
    name: SESSION_KEY,
    version: 1,
    storage: chromeStoragePersist<SessionState>('session'),
    migrate: (persisted) => persisted as SessionState,
    merge: (persisted, current) => {
      const parsed = sessionStateSchema.safeParse(persisted);
      return parsed.success ? { ...current, ...parsed.data } : current;
    },
  }),
);

function hydrated(store: typeof localStore | typeof sessionStore): Promise<void> {
  if (store.persist.hasHydrated()) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = store.persist.onFinishHydration(() => {
      stop();
      resolve();
    });
  });
}

let readyPromise: Promise<void> | null = null;

/** Resolves once both stores hold what storage holds. Every handler awaits this first. */
export function ready(): Promise<void> {
  readyPromise ??= Promise.all([hydrated(localStore), hydrated(sessionStore)]).then(() => undefined);
  return readyPromise;
}

/**
 * If session storage is cleared from outside (the browser, the person's tools), the worker forgets
 * its handles at once: everything is refused until the person's agent binds again.
 */
export function forgetSessionWhenCleared(): void {
  browser.storage.onChanged.addListener((changes, area) => {
    if (area !== 'session') return;
    const change = changes[versionKey(SESSION_KEY)];
    if (change && change.newValue === undefined) sessionStore.setState(initialSessionState(), true);
  });
}
