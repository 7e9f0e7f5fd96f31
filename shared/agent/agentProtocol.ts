/**
 * The agent protocol: the four tools' arguments (zod, checked at the trust boundary by both the
 * bridge and the service worker, each through its tool's record: background/tools/registry.ts)
 * and the one envelope every answer comes in.
 *
 * Context fields (profile, workspace, handle) are optional in the schemas on purpose: a request
 * that lacks them is refused with `missing_context` naming exactly what is missing (R9), which
 * is more useful to an agent than a generic schema error.
 */
import { z } from 'zod';
import type { AgentIdentity } from './agentIdentity.ts';
import type { TetherError } from '../errors.ts';
import { LANGS } from '../model/explain.ts';
import * as zm from 'zod/mini';
import { READ_FORMATS } from '../page/pageChannel.ts';
import { planSchema } from './planSchema.ts';
import type { ToolResults } from './results.ts';

export const TOOL_NAMES = ['context', 'resolve', 'inspect', 'act'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

const id = z.string().min(1).max(200);

export const targetSpecSchema = z
  .strictObject({
    handle: id.optional(),
    tabId: z
      .number()
      .int()
      .nonnegative()
      .max(2 ** 31)
      .optional(),
    url: z.string().min(1).max(4096).optional(),
    site: z.string().min(1).max(200).optional(),
    title: z.string().min(1).max(500).optional(),
  })
  .describe('url may be a prefix; site: "blog", "cafe.naver.com", "네이버 카페"; title words narrow.');

/** How any request wants its answer: the explanations' language, and diagnostics in `meta`. */
const answerOptions = {
  lang: z.enum(LANGS, { error: `lang must be one of: ${LANGS.map((lang) => `"${lang}"`).join(', ')}` }).optional(),
  debug: z.boolean({ error: 'debug must be true or false' }).optional(),
};

export const contextArgsSchema = z.strictObject({
  profile: id.optional(),
  workspace: id.optional(),
  ...answerOptions,
});

export const resolveArgsSchema = z.strictObject({
  profile: id.optional(),
  workspace: id.optional(),
  destination: targetSpecSchema.optional().describe('Default: the program’s tab, else the active tab.'),
  references: z.array(targetSpecSchema).max(20).optional(),
  readOnly: z.boolean().optional(),
  program: z.string().min(1).max(100).optional().describe('Task name; reuse it to continue.'),
  continueDraft: z.boolean().optional().describe('Continue the page’s draft instead of refusing.'),
  /** On ambiguous_target, the person picks a candidate in Tether's panel: true (2 minutes), or the seconds to wait. */
  ask: z.union([z.boolean(), z.number().int().min(1).max(900)]).optional(),
  ...answerOptions,
});

export const inspectArgsSchema = z.strictObject({
  profile: id.optional(),
  workspace: id.optional(),
  handle: id.optional(),
  read: z.array(z.string().min(1).max(100)).max(20).optional(),
  readAs: z.enum(READ_FORMATS).optional(),
  from: z
    .record(
      z.string().min(1).max(100),
      z
        .number()
        .int()
        .nonnegative()
        .max(2 ** 31),
    )
    .optional()
    .describe('Read on: {name: truncated.next} for a name in read.'),
  ...answerOptions,
});

export { planSchema, stepSchema, type Plan, type PlanStep } from './planSchema.ts';

export const actArgsSchema = z.strictObject({
  profile: id.optional(),
  workspace: id.optional(),
  handle: id.optional(),
  plan: zm.optional(planSchema),
  requestId: z.string().min(1).max(100).optional().describe('Same id again: runs once.'),
  at: z.iso.datetime({ offset: true }).optional().describe('Run later.'),
  approvalTimeoutSeconds: z.number().int().min(1).max(900).optional(),
  /** Releases the handle's tab when the plan has run (or at once, with no plan): the agent's task there is done. */
  release: z.boolean().optional(),
  ...answerOptions,
});

export type ContextArgs = z.infer<typeof contextArgsSchema>;
export type ResolveArgs = z.infer<typeof resolveArgsSchema>;
export type InspectArgs = z.infer<typeof inspectArgsSchema>;
export type ActArgs = z.infer<typeof actArgsSchema>;

/** One agent request, as it travels from the bridge to a profile's service worker. */
export interface AgentRequest {
  tool: ToolName;
  args: unknown;
  /** The bridge's id for this call, for the journal; not a trust decision. */
  callId?: string;
  /**
   * The MCP session that sent it, from the call's envelope (never from `args`): who holds what.
   * A label and a session secret, not a credential (see agentIdentity.ts).
   */
  agent?: AgentIdentity;
}

/**
 * Diagnostics, only for a request that asked (`debug: true`) — except a journal record that could
 * not be saved, which every answer reports.
 */
export interface EnvelopeMeta {
  tool?: ToolName | 'unknown';
  callId?: string;
  profile?: string;
  /** Time spent in the browser profile's service worker, from arrival to the journal record. */
  tookMs?: number;
  /** Time the bridge waited for the browser (the channel's round trip plus hostMs or tookMs). */
  bridgeMs?: number;
  /** On the native path: time the native host waited for the worker (the native port's round trip plus tookMs). */
  hostMs?: number;
  /** The journal record: saved, or the storage problem that kept it from being saved. */
  journal?: { saved: true; id: string } | { saved: false; problem: string };
}

/** Every answer: a result or a refusal. `R` is the tool's result type; on the wire it is not known yet. */
export type Envelope<R = unknown> = { ok: true; result: R; meta?: EnvelopeMeta } | { ok: false; error: TetherError; meta?: EnvelopeMeta };

/** The envelope of one tool's answer. */
export type ToolEnvelope<T extends ToolName> = Envelope<ToolResults[T]>;

/** The envelope of any tool's answer, as the worker gives it. */
export type AnyToolEnvelope = Envelope<ToolResults[ToolName]>;

export function describeZodIssues(error: z.ZodError): Array<{ path: string; message: string }> {
  return error.issues.slice(0, 20).map((issue) => ({
    path: issue.path.map(String).join('.') || '(root)',
    message: issue.message,
  }));
}
