/**
 * Target handles: opaque tokens only `resolve` can mint. A handle is 144 random bits; what it
 * means is a record in `storage.session` under that token, so an agent cannot forge, alter or
 * guess one, and a handle survives the worker being stopped but not a browser restart (when tab
 * ids mean nothing any more). Every inspect and act reads its handle, so the worker keeps a copy
 * of the records it used (see sessionRecords.ts: storage stays the source of truth).
 */
import { z } from 'zod';
import { newId } from '../../shared/ids.ts';
import type { TargetBinding } from '../../shared/model/targetModel.ts';
import { targetBindingSchema } from '../../shared/model/targetModelSchemas.ts';
import { sessionArea } from './sessionArea.ts';
import { SessionRecords } from '../core/sessionRecords.ts';

export const HANDLE_TTL_MS = 2 * 60 * 60 * 1000;
/** Live handles kept per profile; past this the oldest go first, so storage stays flat under load. */
export const MAX_LIVE_HANDLES = 256;

export interface HandleRecord {
  binding: TargetBinding;
  mintedAt: number;
  expiresAt: number;
  /** Field hashes seen by the last inspect through this handle: a plan's default expectation. */
  inspected: Record<string, string> | null;
  /**
   * The element each field name meant when this handle last saw the page (at resolve, then at each
   * inspect), by the content script's element id: a write to a name that now means another element
   * is refused. Never shown to agents.
   */
  elements?: Record<string, string>;
  /** The request that minted it, for the journal. */
  requestId: string;
  /** For a write handle: the hold it was minted under; it writes only while that hold lasts (core/tabHolds.ts). */
  hold?: string;
}

const handleRecordSchema: z.ZodType<HandleRecord> = z.object({
  binding: targetBindingSchema,
  mintedAt: z.number(),
  expiresAt: z.number(),
  inspected: z.record(z.string(), z.string()).nullable(),
  elements: z.record(z.string(), z.string()).optional(),
  requestId: z.string(),
  hold: z.string().optional(),
});

const handles = new SessionRecords<HandleRecord>({
  storage: sessionArea,
  cached: true,
  prefix: 'tether.handle.',
  max: MAX_LIVE_HANDLES,
  madeAt: (record) => record.mintedAt,
  expired: (record, now) => record.expiresAt <= now,
  parse: (value) => {
    const parsed = handleRecordSchema.safeParse(value);
    return parsed.success ? parsed.data : null;
  },
});

export async function mintHandle(
  binding: TargetBinding,
  requestId: string,
  now: number,
  elements: Record<string, string> = {},
  hold?: string,
): Promise<string> {
  const token = newId('th', 18);
  await handles.put(token, {
    binding,
    mintedAt: now,
    expiresAt: now + HANDLE_TTL_MS,
    inspected: null,
    elements,
    requestId,
    ...(hold !== undefined ? { hold } : {}),
  });
  return token;
}

/** The record behind a token, or null; `checkHandle` decides whether it may be used. */
export function getHandle(token: string): Promise<HandleRecord | null> {
  return handles.get(token);
}

/**
 * Remembers what the last inspect saw in each field — the default expectation of a plan's writes —
 * and which element each name meant then.
 */
export async function rememberInspection(token: string, fields: Record<string, string>, elements: Record<string, string>): Promise<void> {
  // An inspect that saw what the last one saw writes nothing.
  await handles.update(token, (record) =>
    record.inspected !== null && sameEntries(record.inspected, fields) && sameEntries(record.elements ?? {}, elements)
      ? record
      : { ...record, inspected: fields, elements },
  );
}

function sameEntries(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}

/** The person unbinds: every handle of a tab (or of a workspace) stops working at once. */
export function revokeHandles(match: (binding: TargetBinding) => boolean): Promise<number> {
  return handles.removeWhere((record) => match(record.binding));
}
