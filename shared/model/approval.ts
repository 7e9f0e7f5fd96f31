/**
 * A publish/submit-type plan waiting for the person's approval: defined here once. The worker
 * keeps it in the session store (checked with `approvalSchema` when storage gives it back), the
 * act tool asks for one (`ApprovalRequest`), and the person's pages are shown `UiApproval`.
 */
import { z } from 'zod';
import { agentLabelSchema } from '../agent/agentIdentity.ts';
import type { StepPreview } from './describePlan.ts';
import type { Explanation } from './explain.ts';

const stepPreviewSchema = z.object({ op: z.string(), target: z.string(), preview: z.string() }) satisfies z.ZodType<StepPreview>;
const summarySchema = z.object({ en: z.string(), ko: z.string() }) satisfies z.ZodType<Explanation>;

/** An image the plan puts on the site, as the person judges it (never its bytes: a thumbnail at most 160 px). */
export const approvalImageSchema = z.object({
  name: z.string().max(200),
  /** The file's path, or the reference page's site and the image's name. */
  from: z.string().max(4200),
  kind: z.enum(['reference', 'file', 'inline']),
  bytes: z.number().int().nonnegative(),
  width: z.number().int().nonnegative(),
  height: z.number().int().nonnegative(),
  /** This image is why the person is asked (a local file or inline bytes, without the site's standing permission). */
  asks: z.boolean(),
  thumbnail: z
    .string()
    .max(200_000)
    .regex(/^data:image\/jpeg;base64,[A-Za-z0-9+/=]+$/)
    .optional(),
});
export type ApprovalImage = z.infer<typeof approvalImageSchema>;

/** An image the post already holds, shown in its publish approval (a thumbnail the worker drew from the page's own address). */
export const approvalPostImageSchema = z.object({
  alt: z.string().max(300),
  width: z.number().int().nonnegative(),
  height: z.number().int().nonnegative(),
  /** The host it is served from (the site's own, or its CDN). */
  site: z.string().max(300),
  thumbnail: approvalImageSchema.shape.thumbnail,
});
export type ApprovalPostImage = z.infer<typeof approvalPostImageSchema>;

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
  /** The images the plan uploads, when it has any. */
  images: z.array(approvalImageSchema).max(20).optional(),
  /** For a publish: the images the post holds now (what the page shows in its fields and form), drawn small. */
  postImages: z.array(approvalPostImageSchema).max(20).optional(),
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
  images: true,
  postImages: true,
  expiresAt: true,
});
export type UiApproval = z.infer<typeof uiApprovalSchema>;

export function uiApprovalOf(approval: Approval): UiApproval {
  // Parsing a pick keeps only the picked fields.
  return uiApprovalSchema.parse(approval);
}
