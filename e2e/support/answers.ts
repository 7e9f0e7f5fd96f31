/** Small assertions on envelopes; the result types are the product's own (shared/agent/results.ts). */
import { expect } from '@playwright/test';
import type { Envelope } from '../../shared/agent/agentProtocol.ts';
import type { ActDone, ActReleased, ActResult, ActScheduled, InspectResult } from '../../shared/agent/results.ts';

export function ok<T>(envelope: Envelope<T>): T {
  if (!envelope.ok) throw new Error(`expected ok, got ${envelope.error.code}: ${envelope.error.message}`);
  return envelope.result;
}

export function refused(envelope: Envelope, code: string): { code: string; message: string; details?: Record<string, unknown> } {
  expect(envelope.ok, envelope.ok ? `expected ${code}, got ok: ${JSON.stringify(envelope.result).slice(0, 300)}` : '').toBe(false);
  if (envelope.ok) throw new Error('unreachable');
  expect(envelope.error.code, envelope.error.message).toBe(code);
  return envelope.error;
}

export function hashOf(result: InspectResult, field: string): string {
  const found = result.fields?.find((item) => item.name === field);
  if (!found) throw new Error(`no field ${field} in ${(result.fields ?? []).map((item) => item.name).join(', ')}`);
  return found.hash;
}

/** An act that ran now (not one scheduled for later). */
export function ran(result: ActResult): ActDone {
  if ('scheduled' in result) throw new Error(`expected an act that ran, got one scheduled for ${result.scheduled.at}`);
  if (!('steps' in result)) throw new Error('expected an act that ran, got a release');
  return result;
}

/** An act that only released its tab. */
export function released(result: ActResult): ActReleased {
  if ('steps' in result || 'scheduled' in result) throw new Error('expected a release');
  return result;
}

/** An act scheduled for later. */
export function scheduled(result: ActResult): ActScheduled {
  if (!('scheduled' in result)) throw new Error('expected a scheduled act, got one that ran');
  return result;
}

/** The blog-from-cafe task's plan: the cafe post's title and body into the blog editor, then publish. */
export function blogFromCafePlan(cafe: InspectResult): { steps: Array<Record<string, string>> } {
  return {
    steps: [
      { op: 'fill', field: 'title', text: `From the cafe: ${cafe.text?.['post.title'] ?? ''}` },
      { op: 'fill', field: 'body', text: cafe.text?.['post.body'] ?? '' },
      { op: 'click', action: 'publish' },
    ],
  };
}
