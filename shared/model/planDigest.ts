/** A digest of what an approval is for: this plan, on this page, pressing these very elements, at this time. */
import type { ClickPin } from '../page/elementBinding.ts';
import type { Plan } from '../agent/planSchema.ts';

export async function planDigest(subject: {
  tabId: number;
  documentId: string;
  pageInstance: string | null;
  plan: Plan;
  pins: ClickPin[];
  at: string | null;
}): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify([subject.tabId, subject.documentId, subject.pageInstance, subject.plan, subject.pins, subject.at]));
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(hash, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
