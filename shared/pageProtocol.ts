/**
 * The channel between the service worker and the content script of one exact document.
 *
 * The worker sends with `tabs.sendMessage(tabId, msg, { documentId })`, so a page that replaced the
 * bound one can never receive it. Answers come back from a renderer that runs page code too, so the
 * worker checks them with these schemas before believing them. zod/mini keeps the content script,
 * which every page loads, small.
 */
import * as z from 'zod/mini';
import { ERROR_CODES } from './errors.ts';
import { planSchema } from './planSchema.ts';

export const PAGE_CHANNEL = 'tether.page';

const upTo = (length: number) => z.string().check(z.maxLength(length));
const listOf = <T extends z.ZodMiniType>(item: T, length: number) => z.array(item).check(z.maxLength(length));

export const signInSchema = z.object({
  state: z.enum(['signed_in', 'signed_out', 'unknown']),
  account: z.nullable(upTo(300)),
  /** How it was detected: "adapter:test-blog", "generic:sign-out-link", … */
  via: upTo(100),
});
export type SignIn = z.infer<typeof signInSchema>;

export const draftSchema = z.object({
  inProgress: z.boolean(),
  /** Why: "person-typed:body", "autosave-banner", … */
  reasons: listOf(upTo(200), 20),
});
export type DraftState = z.infer<typeof draftSchema>;

export const FIELD_KINDS = ['input', 'textarea', 'contenteditable', 'iframe-editor', 'select', 'rich-editor'] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

export const fieldInfoSchema = z.object({
  name: upTo(100),
  kind: z.enum(FIELD_KINDS),
  label: upTo(200),
  length: z.int().check(z.nonnegative()),
  hash: upTo(64),
  focused: z.boolean(),
  editedByPerson: z.boolean(),
  options: z.optional(listOf(upTo(300), 200)),
});
export type FieldInfo = z.infer<typeof fieldInfoSchema>;

export const ACTION_KINDS = ['publish', 'submit', 'save_draft', 'other'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];
/** Actions whose effect leaves the page: they need the person's approval unless the site allows them. */
export const APPROVAL_ACTION_KINDS: readonly ActionKind[] = ['publish', 'submit'];

export const actionInfoSchema = z.object({
  name: upTo(100),
  kind: z.enum(ACTION_KINDS),
  label: upTo(200),
});
export type ActionInfo = z.infer<typeof actionInfoSchema>;

/** Tether's id of one element in one document (content/elementIds.ts); never shown to agents. */
const elementIdSchema = upTo(40);

const observationShape = {
  url: upTo(8192),
  title: upTo(2000),
  pageInstance: upTo(100),
  adapter: upTo(100),
  signIn: signInSchema,
  draft: draftSchema,
  /** Which element each field name means now, by element id: kept with the handle, not shown to agents. */
  fieldElements: z.record(upTo(100), elementIdSchema),
};

export const pageObservationSchema = z.object(observationShape);
export type PageObservation = z.infer<typeof pageObservationSchema>;

export const pageInspectionSchema = z.object({
  ...observationShape,
  fields: listOf(fieldInfoSchema, 100),
  actions: listOf(actionInfoSchema, 100),
  /** The text of fields or regions the request asked for by name. */
  text: z.optional(z.record(z.string(), upTo(200_000))),
  /** Names the request asked to read that the page does not have. */
  unknown: z.optional(z.array(z.string())),
  /** Readable regions the adapter knows (e.g. a post's title and body), by name. */
  readable: listOf(upTo(100), 50),
});
export type PageInspection = z.infer<typeof pageInspectionSchema>;

export const problemSchema = z.object({
  step: z.int().check(z.nonnegative()),
  code: z.enum(ERROR_CODES),
  message: upTo(1000),
  /** For context_changed: what changed ("element": the name now means another button, or it was relabelled). */
  changed: z.optional(listOf(upTo(40), 10)),
  /** Who changed the field: the person (trusted keys, IME, paste, drop) or the page's own script. */
  cause: z.optional(z.enum(['person', 'page'])),
});
export type PlanProblem = z.infer<typeof problemSchema>;

export const stepOutcomeSchema = z.object({
  step: z.int().check(z.nonnegative()),
  op: z.string(),
  target: z.string(),
  /** How the text went in: "insertText" keeps the person's undo; "setter" is the fallback. */
  method: z.optional(z.string()),
  beforeHash: z.optional(z.string()),
  afterHash: z.optional(z.string()),
  /** The page's own model holds the text after the write. */
  verified: z.boolean(),
});
export type StepOutcome = z.infer<typeof stepOutcomeSchema>;

/** A click as validated: its element, the label a person reads on it, and a fingerprint of what it does. */
export const clickInfoSchema = z.object({
  step: z.int(),
  action: z.string(),
  kind: z.enum(ACTION_KINDS),
  element: elementIdSchema,
  label: upTo(200),
  fingerprint: upTo(64),
});
export type ClickInfo = z.infer<typeof clickInfoSchema>;

export const clickPinSchema = z.object({ step: z.int().check(z.nonnegative()), element: elementIdSchema, label: upTo(200), fingerprint: upTo(64) });

/** Expectations the worker hands the page, checked at the last moment inside the page. */
export const pageExpectationSchema = z.object({
  pageInstance: z.nullable(z.string()),
  url: z.string(),
  account: z.nullable(z.string()),
  role: z.enum(['write', 'reference']),
});
export type PageExpectation = z.infer<typeof pageExpectationSchema>;

export const pageActResultSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    dryRun: z.boolean(),
    steps: z.array(stepOutcomeSchema),
    clicks: z.array(clickInfoSchema),
    url: z.string(),
  }),
  z.object({
    ok: z.literal(false),
    error: z.object({ code: z.enum(ERROR_CODES), message: z.string(), details: z.optional(z.record(z.string(), z.unknown())) }),
    problems: z.array(problemSchema),
    ran: z.array(stepOutcomeSchema),
    rolledBack: z.array(z.int()),
  }),
]);
export type PageActResult = z.infer<typeof pageActResultSchema>;

/** Requests to the content script (one discriminated union for this channel). */
export const pageRequestSchema = z.discriminatedUnion('type', [
  z.object({ channel: z.literal(PAGE_CHANNEL), type: z.literal('observe') }),
  z.object({
    channel: z.literal(PAGE_CHANNEL),
    type: z.literal('inspect'),
    expect: pageExpectationSchema,
    read: listOf(z.string(), 20),
  }),
  z.object({
    channel: z.literal(PAGE_CHANNEL),
    type: z.literal('act'),
    expect: pageExpectationSchema,
    requestId: z.string(),
    plan: planSchema,
    /** Field hashes the last inspect of this handle saw: the default expectation of each write. */
    inspected: z.record(z.string(), z.string()),
    /** The element each field name meant when this handle last saw the page; a write to a name not here is refused. */
    elements: z.record(z.string(), elementIdSchema),
    /** For a run: the element each click was validated (and approved) against at the dry run. */
    pins: listOf(clickPinSchema, 50),
    dryRun: z.boolean(),
    /** Publish/submit-type clicks may run (approved, or allowed by the site); refused otherwise. */
    approved: z.boolean(),
  }),
  z.object({ channel: z.literal(PAGE_CHANNEL), type: z.literal('actStatus'), requestId: z.string() }),
]);
export type PageRequest = z.infer<typeof pageRequestSchema>;

export const pageActStatusSchema = z.object({
  state: z.enum(['unknown', 'running', 'done']),
  result: z.optional(pageActResultSchema),
});
export type PageActStatus = z.infer<typeof pageActStatusSchema>;

/** What each request type answers; the worker parses it with the matching schema. */
export interface PageAnswers {
  observe: PageObservation;
  inspect: PageInspection;
  act: PageActResult;
  actStatus: PageActStatus;
}

export const pageAnswerSchemas = {
  observe: pageObservationSchema,
  inspect: pageInspectionSchema,
  act: pageActResultSchema,
  actStatus: pageActStatusSchema,
} as const;

/** The content script answers every request with this wrapper, so refusals travel as values. */
export type PageReply<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string; details?: Record<string, unknown> } };
