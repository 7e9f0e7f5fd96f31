/**
 * zod schemas for the model, used where stored data comes back in (after migrations): a value in
 * `chrome.storage` may have been written by an older version, or edited by hand.
 */
import { z } from 'zod';
import type { Profile, Program, SitePolicy, TargetBinding, Workspace, WorkspaceSource } from './targetModel.ts';

export const profileSchema: z.ZodType<Profile> = z.object({
  id: z.string().min(1),
  label: z.string(),
  createdAt: z.number(),
});

export const sitePolicySchema: z.ZodType<SitePolicy> = z.object({
  writable: z.boolean(),
  publishWithoutApproval: z.boolean(),
  uploadImagesWithoutAsking: z.optional(z.boolean()),
  expectedAccount: z.string().optional(),
});

export const workspaceSourceSchema: z.ZodType<WorkspaceSource> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('window'), windowId: z.number().int() }),
  z.object({ kind: z.literal('group'), groupId: z.number().int(), windowId: z.number().int() }),
  z.object({ kind: z.literal('manual') }),
]);

export const workspaceSchema: z.ZodType<Workspace> = z.object({
  id: z.string().min(1),
  name: z.string(),
  shared: z.boolean(),
  source: workspaceSourceSchema,
  tabIds: z.array(z.number().int()),
  memberUrls: z.record(z.string(), z.string()).optional(),
  sites: z.record(z.string(), sitePolicySchema),
  createdAt: z.number(),
});

export const targetBindingSchema: z.ZodType<TargetBinding> = z.object({
  profileId: z.string(),
  workspaceId: z.string(),
  tabId: z.number().int(),
  documentId: z.string(),
  origin: z.string(),
  url: z.string(),
  title: z.string(),
  role: z.enum(['write', 'reference']),
  account: z.string().nullable(),
  pageInstance: z.string().nullable(),
});

export const programSchema: z.ZodType<Program> = z.object({
  id: z.string(),
  label: z.string(),
  workspaceId: z.string(),
  target: targetBindingSchema,
  status: z.enum(['running', 'scheduled']),
  createdAt: z.number(),
  dueAt: z.number().optional(),
});
