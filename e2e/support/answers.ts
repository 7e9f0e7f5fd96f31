/** Typed views of the answers tests read, and small assertions on envelopes. */
import { expect } from '@playwright/test';
import type { Envelope } from '../../shared/protocol.ts';

export interface ResolvedTargetView {
  handle: string;
  tabId: number;
  title: string;
  url: string;
  site: string;
  account?: string | null;
  rule?: string;
}

export interface ResolveResult {
  write: ResolvedTargetView | null;
  references: ResolvedTargetView[];
  explanation: { en: string; ko: string };
  program?: { id: string; label: string; continued: boolean };
}

export interface FieldView {
  name: string;
  kind: string;
  length: number;
  hash: string;
  focused: boolean;
  editedByPerson: boolean;
}

export interface InspectResult {
  role: 'write' | 'reference';
  documentId: string;
  url: string;
  title: string;
  adapter: string;
  signIn: { state: string; account: string | null; via: string };
  draft: { inProgress: boolean; reasons: string[] };
  fields: FieldView[];
  actions: Array<{ name: string; kind: string; label: string }>;
  readable: string[];
  text?: Record<string, string>;
}

export interface ActResult {
  requestId: string;
  steps: Array<{
    step: number;
    op: string;
    target: string;
    /** The editor family and the path the text went in by; for markdown/html what the editor kept. */
    editor?: string;
    path?: string;
    tried?: string[];
    took?: 'html' | 'text';
    kept?: string[];
    dropped?: string[];
    verified: boolean;
  }>;
  url: string;
  done: { en: string; ko: string };
  scheduled?: { id: string; at: string; program: string };
}

export function ok<T>(envelope: Envelope): T {
  if (!envelope.ok) throw new Error(`expected ok, got ${envelope.error.code}: ${envelope.error.message}`);
  return envelope.result as T;
}

export function refused(envelope: Envelope, code: string): { code: string; message: string; details?: Record<string, unknown> } {
  expect(envelope.ok, envelope.ok ? `expected ${code}, got ok: ${JSON.stringify(envelope.result).slice(0, 300)}` : '').toBe(false);
  if (envelope.ok) throw new Error('unreachable');
  expect(envelope.error.code, envelope.error.message).toBe(code);
  return envelope.error;
}

export function hashOf(result: InspectResult, field: string): string {
  const found = result.fields.find((item) => item.name === field);
  if (!found) throw new Error(`no field ${field} in ${result.fields.map((item) => item.name).join(', ')}`);
  return found.hash;
}
