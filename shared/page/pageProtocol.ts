/**
 * The channel between the service worker and the content script of one exact document.
 *
 * The worker sends with `tabs.sendMessage(tabId, msg, { documentId })`, so a page that replaced the
 * bound one can never receive it. Answers come back from a renderer that runs page code too, so the
 * worker checks them with these schemas before believing them. zod/mini keeps the content script,
 * which every page loads, small.
 */
import * as z from 'zod/mini';
import { ERROR_CODES } from '../errors.ts';
import { ACTION_KINDS, FIELD_KINDS, PAGE_CHANNEL, READ_FORMATS, type PageReply } from './pageChannel.ts';
import { IMAGE_TYPES, MAX_IMAGE_BASE64 } from '../imageBytes.ts';
import { planSchema } from '../agent/planSchema.ts';

export {
  ACT_MODULE_FILE,
  ACTION_KINDS,
  APPROVAL_ACTION_KINDS,
  FIELD_KINDS,
  PAGE_CHANNEL,
  READ_FORMATS,
  READER_MODULE_FILE,
  SITES_MODULE_FILE,
  type ActionKind,
  type FieldKind,
  type PageExpectation,
  type PageReply,
  type ReadFormat,
} from './pageChannel.ts';

const upTo = (length: number) => z.string().check(z.maxLength(length));
const count = z.int().check(z.nonnegative());
const listOf = <T extends z.ZodMiniType>(item: T, length: number) => z.array(item).check(z.maxLength(length));

/**
 * Who is signed in, as the page shows it. Written out as an interface (the schema is checked
 * against it, shared/agent/resultTypes.test.ts): the testing kit's declarations name it, and a tester
 * has no zod.
 */
export interface SignIn {
  state: 'signed_in' | 'signed_out' | 'unknown';
  account: string | null;
  /** How it was detected: "adapter:test-blog", "generic:sign-out-link", … */
  via: string;
}

export const signInSchema = z.object({
  state: z.enum(['signed_in', 'signed_out', 'unknown']),
  account: z.nullable(upTo(300)),
  via: upTo(100),
}) satisfies z.ZodMiniType<SignIn>;

export const draftSchema = z.object({
  inProgress: z.boolean(),
  /** Why: "person-typed:body", "autosave-banner", … */
  reasons: listOf(upTo(200), 20),
});
export type DraftState = z.infer<typeof draftSchema>;

export const fieldInfoSchema = z.object({
  name: upTo(100),
  kind: z.enum(FIELD_KINDS),
  label: upTo(200),
  length: z.int().check(z.nonnegative()),
  hash: upTo(64),
  focused: z.boolean(),
  editedByPerson: z.boolean(),
  options: z.optional(listOf(upTo(300), 200)),
  /** A file chooser (kind `file`): the types its accept= names ([]: any), and whether it takes several files at once. */
  accept: z.optional(listOf(upTo(100), 20)),
  multiple: z.optional(z.boolean()),
});
export type FieldInfo = z.infer<typeof fieldInfoSchema>;

export const actionInfoSchema = z.object({
  name: upTo(100),
  kind: z.enum(ACTION_KINDS),
  label: upTo(200),
  /** How many more controls like it the page has (a Reply under every comment), left out of the list. */
  repeated: z.optional(z.int().check(z.nonnegative())),
});
export type ActionInfo = z.infer<typeof actionInfoSchema>;

/** Tether's id of one element in one document (content/elementIds.ts); never shown to agents. */
const elementIdSchema = upTo(40);

const observationShape = {
  url: upTo(8192),
  title: upTo(2000),
  pageInstance: upTo(100),
  /** Who read the page: a site adapter's id, or "generic". */
  adapter: upTo(100),
  /** Set when a site adapter claims the page but did not match it (all or part): what the generic model did. */
  adapterProblem: z.optional(upTo(1000)),
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
  /** How each text that is not whole was cut (shared/page/textPiece.ts). */
  truncated: z.optional(z.record(z.string(), z.object({ from: z.optional(count), returned: count, total: count, next: z.optional(count) }))),
  /** Texts read another way than asked (the article's generic reading), and why. */
  fallback: z.optional(z.record(z.string(), upTo(1000))),
  /** Names the request asked to read that the page does not have. */
  unknown: z.optional(z.array(z.string())),
  /** Readable regions the adapter knows (e.g. a post's title and body), by name. */
  readable: listOf(upTo(100), 50),
  /** The images a person can see in what `read` named (never their bytes). */
  images: z.optional(listOf(z.object({ name: upTo(100), alt: upTo(300), width: count, height: count, region: upTo(100), after: z.optional(upTo(120)) }), 100)),
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
  /** For an image the field cannot take: the editor family it is. */
  editor: z.optional(upTo(40)),
});
export type PlanProblem = z.infer<typeof problemSchema>;

/** What one step of a plan did (an interface for the testing kit's declarations; the schema is checked against it). */
export interface StepOutcome {
  step: number;
  op: string;
  target: string;
  /** The editor family detected for the field ("ckeditor5", "lexical", "textarea", …). */
  editor?: string;
  /** How the text went in: "execCommand" (the person's undo), "paste", "beforeinput", "setter", … */
  path?: string;
  /** Paths tried before (or instead of) the one that took, when the first did not. */
  tried?: string[];
  /** For markdown/html: what the editor's model took ("html", or "text" for a plain-text editor). */
  took?: 'html' | 'text';
  /** For markdown/html: the constructs the editor kept, and what it or the sanitizer dropped. */
  kept?: string[];
  /** For an image step: the address the site stored the image at (as the editor shows it). */
  src?: string;
  /** For a markdown step with images: each image's stored address, in the order of the text. */
  images?: string[];
  dropped?: string[];
  beforeHash?: string;
  afterHash?: string;
  /** Whether the person's Ctrl+Z in the editor undoes this write (`editor`) or only Tether's rollback does (`tether`), where Tether knows. */
  undo?: 'editor' | 'tether';
  /** The page's own model holds the text after the write. */
  verified: boolean;
  /** Why not, when the write changed the field but is not verified (what the editor's model holds instead). */
  reason?: string;
}

export const stepOutcomeSchema = z.object({
  step: z.int().check(z.nonnegative()),
  op: z.string(),
  target: z.string(),
  /** The editor family detected for the field ("ckeditor5", "lexical", "textarea", …). */
  editor: z.optional(upTo(40)),
  /** How the text went in: "execCommand" (the person's undo), "paste", "beforeinput", "setter", … */
  path: z.optional(upTo(60)),
  /** Paths tried before (or instead of) the one that took, when the first did not. */
  tried: z.optional(listOf(upTo(60), 10)),
  /** For markdown/html: what the editor's model took ("html", or "text" for a plain-text editor). */
  took: z.optional(z.enum(['html', 'text'])),
  /** For markdown/html: the constructs the editor kept, and what it or the sanitizer dropped. */
  kept: z.optional(listOf(upTo(40), 30)),
  /** For an image step: the address the site stored the image at (as the editor shows it). */
  src: z.optional(upTo(4096)),
  /** For a markdown step with images: each image's stored address, in the order of the text. */
  images: z.optional(listOf(upTo(4096), 20)),
  dropped: z.optional(listOf(upTo(60), 40)),
  /** Whether the person's Ctrl+Z in the editor undoes this write (`editor`) or only Tether's rollback does (`tether`), where Tether knows. */
  undo: z.optional(z.enum(['editor', 'tether'])),
  beforeHash: z.optional(z.string()),
  afterHash: z.optional(z.string()),
  /** The page's own model holds the text after the write. */
  verified: z.boolean(),
  /** Why not, when the write changed the field but is not verified (what the editor's model holds instead). */
  reason: z.optional(upTo(300)),
}) satisfies z.ZodMiniType<StepOutcome>;

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

export const pageExpectationSchema = z.object({
  pageInstance: z.nullable(z.string()),
  url: z.string(),
  account: z.nullable(z.string()),
  role: z.enum(['write', 'reference']),
});

/** An image a post holds (in a field, or in the form its publish button sends), as the page shows it: never its bytes. */
export const postImageSchema = z.object({ src: upTo(4096), alt: upTo(300), width: count, height: count });
export type PostImage = z.infer<typeof postImageSchema>;

export const pageActResultSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    dryRun: z.boolean(),
    steps: z.array(stepOutcomeSchema),
    clicks: z.array(clickInfoSchema),
    url: z.string(),
    /** A dry run of a plan that publishes: the images the post holds now, for the approval's thumbnails. */
    postImages: z.optional(listOf(postImageSchema, 20)),
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

/** An act: checked again by the act module in the page before it runs. */
export const pageActRequestSchema = z.object({
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
  /** The bytes of each image the plan places, staged ahead (stageImage), by its use (shared/agent/planImages.ts). */
  images: z.optional(listOf(z.object({ use: upTo(60), id: upTo(40), name: upTo(200), type: z.optional(z.enum(IMAGE_TYPES)) }), 20)),
});
export type PageActRequest = z.infer<typeof pageActRequestSchema>;

/** One image's bytes for an act about to run (checked again in the page). */
export const pageStageSchema = z.object({
  channel: z.literal(PAGE_CHANNEL),
  type: z.literal('stageImage'),
  expect: pageExpectationSchema,
  requestId: upTo(100),
  id: upTo(40),
  name: upTo(200),
  data: upTo(MAX_IMAGE_BASE64),
});

/** Requests to the content script (one discriminated union for this channel). */
export const pageRequestSchema = z.discriminatedUnion('type', [
  z.object({ channel: z.literal(PAGE_CHANNEL), type: z.literal('observe') }),
  z.object({
    channel: z.literal(PAGE_CHANNEL),
    type: z.literal('inspect'),
    expect: pageExpectationSchema,
    read: listOf(z.string(), 20),
    readAs: z.optional(z.enum(READ_FORMATS)),
    from: z.optional(z.record(z.string(), count)),
  }),
  pageActRequestSchema,
  z.object({ channel: z.literal(PAGE_CHANNEL), type: z.literal('actStatus'), requestId: z.string() }),
  pageStageSchema,
  /** A reference page's image, by its name in inspect: where the page shows it from, and its size there. */
  z.object({ channel: z.literal(PAGE_CHANNEL), type: z.literal('image'), expect: pageExpectationSchema, name: upTo(100) }),
]);
export type PageRequest = z.infer<typeof pageRequestSchema>;

export const pageActStatusSchema = z.object({
  state: z.enum(['unknown', 'running', 'done']),
  result: z.optional(pageActResultSchema),
});
export type PageActStatus = z.infer<typeof pageActStatusSchema>;

export const stagedSchema = z.object({ stored: z.literal(true) });

/** A reference page's image as the page shows it: never trusted for a decision, only re-checked (background/adapters/referenceImage.ts). */
export const pageImageSchema = z.object({
  url: upTo(8192),
  /** Its pixel size as the page decoded it. */
  width: count,
  height: count,
  alt: upTo(1000),
});
export type PageImage = z.infer<typeof pageImageSchema>;

/** What each request type answers; the worker parses it with the matching schema. */
export interface PageAnswers {
  observe: PageObservation;
  inspect: PageInspection;
  act: PageActResult;
  actStatus: PageActStatus;
  stageImage: z.infer<typeof stagedSchema>;
  image: PageImage;
}

export const pageAnswerSchemas = {
  observe: pageObservationSchema,
  inspect: pageInspectionSchema,
  act: pageActResultSchema,
  actStatus: pageActStatusSchema,
  stageImage: stagedSchema,
  image: pageImageSchema,
} as const;

/** Any reply the content script gives: one of the page answers above, or a refusal. */
export type PageAnswerReply = { [K in keyof PageAnswers]: PageReply<PageAnswers[K]> }[keyof PageAnswers];
