/**
 * What became of each act, by request id, in `storage.session`: a retry with the same request id
 * gets the answer given before instead of a second run, even after the worker was stopped.
 */
import { z } from 'zod';
import type { Outcome } from '../../shared/errors.ts';
import type { ActResult } from '../../shared/agent/results.ts';
import { sessionArea } from './sessionArea.ts';
import { SessionRecords } from '../core/sessionRecords.ts';

const ACT_RECORD_KEPT_MS = 60 * 60 * 1000;
const MAX_ACT_RECORDS = 256;

export interface ActRecord {
  requestId: string;
  handle: string;
  tabId: number;
  documentId: string;
  state: 'running' | 'done';
  startedAt: number;
  /** The answer given, so a retry with the same request id gets it again. */
  answer: Outcome<ActResult> | null;
}

/** Only this worker writes these records (storage.session does not outlive an update), so the answer's shape is checked loosely. */
const storedAnswerSchema = z.custom<Outcome<ActResult>>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    (('ok' in value && value.ok === true && 'value' in value) || ('ok' in value && value.ok === false && 'error' in value)),
);

const actRecordSchema: z.ZodType<ActRecord> = z.object({
  requestId: z.string(),
  handle: z.string(),
  tabId: z.number(),
  documentId: z.string(),
  state: z.enum(['running', 'done']),
  startedAt: z.number(),
  answer: storedAnswerSchema.nullable(),
});

export const actRecords = new SessionRecords<ActRecord>({
  storage: sessionArea,
  prefix: 'tether.act.',
  max: MAX_ACT_RECORDS,
  madeAt: (record) => record.startedAt,
  expired: (record, now) => now - record.startedAt >= ACT_RECORD_KEPT_MS,
  parse: (value) => {
    const parsed = actRecordSchema.safeParse(value);
    return parsed.success ? parsed.data : null;
  },
});
