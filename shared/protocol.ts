/**
 * The agent protocol: the four tools' arguments (zod, checked at the trust boundary by both the
 * bridge and the service worker) and the one envelope every answer comes in.
 *
 * Context fields (profile, workspace, handle) are optional in the schemas on purpose: a request
 * that lacks them is refused with `missing_context` naming exactly what is missing (R9), which
 * is more useful to an agent than a generic schema error.
 */
import { z } from 'zod';
import type { TetherError } from './errors.ts';
import * as zm from 'zod/mini';
import { READ_FORMATS } from './pageChannel.ts';
import { planSchema } from './planSchema.ts';

export const TOOL_NAMES = ['context', 'resolve', 'inspect', 'act'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

const id = z.string().min(1).max(200);

export const targetSpecSchema = z
  .strictObject({
    handle: id.optional(),
    tabId: z.number().int().nonnegative().max(2 ** 31).optional(),
    url: z.string().min(1).max(4096).optional(),
    site: z.string().min(1).max(200).optional(),
    title: z.string().min(1).max(500).optional(),
  })
  .describe('One tab: a handle, a tabId from context, a url (exact or prefix) or a site ("blog", "cafe.naver.com", "네이버 카페"); title narrows by words in the tab title.');

export const contextArgsSchema = z.strictObject({
  profile: id.optional().describe('Profile id; omit to list every connected profile.'),
  workspace: id.optional().describe('Workspace id; omit to list the shared workspaces.'),
});

export const resolveArgsSchema = z.strictObject({
  profile: id.optional(),
  workspace: id.optional(),
  destination: targetSpecSchema.optional().describe('Where to write. Omit to use the continued program or the active tab.'),
  references: z.array(targetSpecSchema).max(20).optional().describe('Tabs that are only read.'),
  readOnly: z.boolean().optional().describe('Only read the references; no write target.'),
  program: z.string().min(1).max(100).optional().describe('Name of the task; a later request with the same name continues it.'),
  continueDraft: z.boolean().optional().describe('Continue the unsaved draft already on the page instead of refusing.'),
});

export const inspectArgsSchema = z.strictObject({
  profile: id.optional(),
  workspace: id.optional(),
  handle: id.optional(),
  read: z.array(z.string().min(1).max(100)).max(20).optional().describe('Field or region names whose text to return.'),
  readAs: z.enum(READ_FORMATS).optional().describe('Return what read names as plain "text" (default) or "markdown" (headings, lists, links kept).'),
});

export { planSchema, stepSchema, type Plan, type PlanStep } from './planSchema.ts';

export const actArgsSchema = z.strictObject({
  profile: id.optional(),
  workspace: id.optional(),
  handle: id.optional(),
  plan: zm.optional(planSchema),
  requestId: z.string().min(1).max(100).optional().describe('Makes a retried act run once.'),
  at: z.iso.datetime({ offset: true }).optional().describe('Run later, at this time (ISO 8601).'),
  approvalTimeoutSeconds: z.number().int().min(1).max(900).optional(),
});

export type ContextArgs = z.infer<typeof contextArgsSchema>;
export type ResolveArgs = z.infer<typeof resolveArgsSchema>;
export type InspectArgs = z.infer<typeof inspectArgsSchema>;
export type ActArgs = z.infer<typeof actArgsSchema>;

export const TOOL_SCHEMAS = {
  context: contextArgsSchema,
  resolve: resolveArgsSchema,
  inspect: inspectArgsSchema,
  act: actArgsSchema,
} as const;

/** The context each tool needs (R9), in the order they are named when missing. */
export const REQUIRED_CONTEXT: Record<ToolName, ReadonlyArray<'profile' | 'workspace' | 'handle' | 'plan'>> = {
  context: [],
  resolve: ['profile', 'workspace'],
  inspect: ['profile', 'workspace', 'handle'],
  act: ['profile', 'workspace', 'handle', 'plan'],
};

/** One agent request, as it travels from the bridge to a profile's service worker. */
export interface AgentRequest {
  tool: ToolName;
  args: unknown;
  /** The bridge's id for this call, for the journal; not a trust decision. */
  callId?: string;
}

export interface EnvelopeMeta {
  tool: ToolName | 'unknown';
  callId?: string;
  profile?: string;
  /** Time spent in the browser profile's service worker, from arrival to the journal record. */
  tookMs?: number;
  /** Time the bridge's hub waited for the browser (WebSocket round trip plus tookMs). */
  bridgeMs?: number;
  /** The journal record: saved, or the storage problem that kept it from being saved. */
  journal?: { saved: true; id: string } | { saved: false; problem: string };
}

export type Envelope =
  | { ok: true; result: unknown; meta: EnvelopeMeta }
  | { ok: false; error: TetherError; meta: EnvelopeMeta };

export function describeZodIssues(error: z.ZodError): Array<{ path: string; message: string }> {
  return error.issues.slice(0, 20).map((issue) => ({
    path: issue.path.map(String).join('.') || '(root)',
    message: issue.message,
  }));
}
