/**
 * One request's trace through the lifecycle: prepare → decide → validate & dispatch → observe →
 * record. Tools fill it in as they go; the harness turns it into the journal record.
 */
import { labelOf, UNNAMED_AGENT, type AgentSession } from '../../shared/agent/agentIdentity.ts';
import type { Outcome } from '../../shared/errors.ts';
import type { Explanation } from '../../shared/model/explain.ts';
import { newId } from '../../shared/ids.ts';
import type { JournalImage, JournalOutcome, JournalRecord, JournalTarget, LifecyclePoint } from '../../shared/model/journalRecord.ts';

const MAX_STRING = 2000;
const MAX_ITEMS = 50;
const MAX_DEPTH = 6;

/** A copy safe to keep: long texts shortened, deep or wide structures cut. */
export function forJournal(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length} chars)` : value;
  if (value === null || typeof value !== 'object') return typeof value === 'number' && !Number.isFinite(value) ? String(value) : value;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => forJournal(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value).slice(0, MAX_ITEMS)) {
    if (key === '__proto__') continue;
    // An image's bytes (an act's `data`, base64) are the person's file: the journal says how many, never keeps them.
    out[key] = key === 'data' && typeof item === 'string' ? `(${item.length} characters of image bytes, not kept)` : forJournal(item, depth + 1);
  }
  return out;
}

export class RequestTrace {
  readonly id = newId('jr', 9);
  /** Epoch ms, for the record's time. */
  readonly startedAt = Date.now();
  /** Monotonic ms, for the lifecycle offsets (sub-millisecond). */
  private readonly origin: number;
  private readonly lifecycle: Partial<Record<LifecyclePoint, number>> = {};
  profileId: string | null = null;
  /** Who asked (its session key stays here: the record keeps only the name and short id). */
  agent: AgentSession | null = null;
  workspaceId: string | null = null;
  requestId: string | undefined;
  decision: unknown;
  steps: unknown[] | undefined;
  observation: unknown;
  explanation: Explanation | undefined;
  targets: JournalTarget[] | undefined;
  /** An act's images: where each came from, its name and size (never its bytes). */
  images: JournalImage[] | undefined;
  /** Set by a tool when success means something other than "done". */
  successOutcome: JournalOutcome = 'done';
  /** Set by a tool when a refusal came after steps ran and were undone. */
  rolledBack = false;
  /** The request asked for diagnostics in the answer's meta. */
  debug = false;
  /** Set by the harness: starts saving the record of this outcome. */
  onSettle: ((outcome: Outcome<unknown>) => void) | null = null;

  constructor(
    readonly tool: string,
    readonly via: JournalRecord['via'],
    readonly args: unknown,
    readonly callId: string | undefined,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.origin = clock();
  }

  /** The agent this request speaks for (a trace made without one: the unnamed agent of older bridges). */
  caller(): AgentSession {
    return this.agent ?? UNNAMED_AGENT;
  }

  point(name: LifecyclePoint): void {
    this.lifecycle[name] ??= this.elapsed();
  }

  /**
   * The tool knows its outcome and has only its own bookkeeping left: the journal record may be
   * saved now, alongside it. The tool must then return this very outcome.
   */
  settle<T>(outcome: Outcome<T>): Outcome<T> {
    this.onSettle?.(outcome);
    return outcome;
  }

  elapsed(): number {
    return Math.round((this.clock() - this.origin) * 100) / 100;
  }

  toRecord(outcome: Outcome<unknown>): JournalRecord {
    const record: JournalRecord = {
      id: this.id,
      at: this.startedAt,
      tool: this.tool,
      via: this.via,
      profileId: this.profileId,
      workspaceId: this.workspaceId,
      request: forJournal(this.args),
      lifecycle: { ...this.lifecycle },
      outcome: outcome.ok ? this.successOutcome : this.rolledBack ? 'rolled_back' : 'refused',
      tookMs: this.elapsed(),
    };
    if (this.agent !== null) record.agent = labelOf(this.agent);
    if (this.callId !== undefined) record.callId = this.callId;
    if (this.requestId !== undefined) record.requestId = this.requestId;
    if (this.decision !== undefined) record.decision = forJournal(this.decision);
    if (this.steps !== undefined) record.steps = forJournal(this.steps) as unknown[];
    if (this.observation !== undefined) record.observation = forJournal(this.observation);
    if (this.explanation !== undefined) record.explanation = this.explanation;
    if (this.targets !== undefined) record.targets = this.targets;
    if (this.images !== undefined) record.images = this.images;
    if (!outcome.ok) {
      record.error = { code: outcome.error.code, message: outcome.error.message };
      if (outcome.error.details !== undefined) record.error.details = forJournal(outcome.error.details);
    }
    return record;
  }
}
