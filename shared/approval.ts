/**
 * A publish/submit-type plan waiting for the person's approval: defined here once. The worker
 * keeps it in the session store (checked with `approvalSchema` when storage gives it back), the
 * act tool asks for one (`ApprovalRequest`), and the person's pages are shown `UiApproval`.
 */
import { z } from 'zod';
import { agentLabelSchema } from './agentIdentity.ts';
import type { StepPreview } from './describePlan.ts';
import type { Explanation } from './explain.ts';

const stepPreviewSchema = z.object({ op: z.string(), target: z.string(), preview: z.string() }) satisfies z.ZodType<StepPreview>;
const summarySchema = z.object({ en: z.string(), ko: z.string() }) satisfies z.ZodType<Explanation>;

export const approvalSchema = z.object({
  id: z.string(),
  requestId: z.string(),
  /** Digest of the tab, document, plan and time this approval is for (see planDigest.ts). */
  digest: z.string(),
  workspaceId: z.string(),
  tabId: z.number(),
  site: z.string(),
  title: z.string(),
  account: z.string().nullable(),
  /** The agent whose plan this is ("Claude Code wants to publish on blog.example as alice"). */
  agent: agentLabelSchema.optional(),
  /** What the approved click does: publish (a post) or submit (a form). */
  action: z.enum(['publish', 'submit']).optional(),
  /** What will happen, in words, for the person to judge. */
  summary: summarySchema,
  steps: z.array(stepPreviewSchema),
  createdAt: z.number(),
  expiresAt: z.number(),
  decision: z.enum(['pending', 'approved', 'denied']),
});
export type Approval = z.infer<typeof approvalSchema>;

/** What the act tool asks for; the worker adds the id, the times and the decision. */
export type ApprovalRequest = Omit<Approval, 'id' | 'createdAt' | 'expiresAt' | 'decision'>;

/** What the person's pages are shown: no digest, no tab id. */
export const uiApprovalSchema = approvalSchema.pick({
  id: true,
  requestId: true,
  workspaceId: true,
  site: true,
  title: true,
  account: true,
  agent: true,
  action: true,
  summary: true,
  steps: true,
  expiresAt: true,
});
export type UiApproval = z.infer<typeof uiApprovalSchema>;

export function uiApprovalOf(approval: Approval): UiApproval {
  // Parsing a pick keeps only the picked fields.
  return uiApprovalSchema.parse(approval);
}
