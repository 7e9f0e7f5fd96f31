/** One journal record: a request through the five lifecycle points, as the person's UI shows it. */
import type { AgentLabel } from '../agent/agentIdentity.ts';
import type { Explanation } from './explain.ts';

/** The journal keeps this many records per profile; past it, the oldest go first. */
export const MAX_JOURNAL_RECORDS = 10_000;

export type LifecyclePoint = 'prepare' | 'decide' | 'dispatch' | 'observe' | 'record';

export type JournalOutcome = 'done' | 'refused' | 'rolled_back' | 'scheduled';

export interface JournalTarget {
  tabId: number;
  site: string;
  title: string;
  account: string | null;
  role: 'write' | 'reference';
}

/** An image an act put in (or meant to): where it came from, never its bytes. */
export interface JournalImage {
  kind: 'reference' | 'file' | 'inline';
  /** The file's path, or the reference page's site and the image's name. */
  from: string;
  name: string;
  bytes: number;
  width: number;
  height: number;
}

export interface JournalRecord {
  id: string;
  at: number;
  tool: string;
  /** Who asked: an agent through the bridge, the person's UI, or a scheduled act firing. */
  via: 'agent' | 'ui' | 'schedule';
  /** Which agent (its MCP session's name and short id); for a scheduled act, the one that scheduled it. */
  agent?: AgentLabel;
  callId?: string;
  requestId?: string;
  profileId: string | null;
  workspaceId: string | null;
  /** The request's arguments, long texts shortened. */
  request: unknown;
  /** Milliseconds from arrival to each lifecycle point reached. */
  lifecycle: Partial<Record<LifecyclePoint, number>>;
  decision?: unknown;
  steps?: unknown[];
  observation?: unknown;
  outcome: JournalOutcome;
  error?: { code: string; message: string; details?: unknown };
  explanation?: Explanation;
  targets?: JournalTarget[];
  images?: JournalImage[];
  tookMs: number;
}
