/**
 * What each tool answers: the one definition the worker's tools build, the bridge merges, and the
 * tests and the bench read. Renaming a field here breaks the build everywhere it is used.
 *
 * An answer holds what an agent acts on and nothing else: no empty lists or nulls (a field is
 * left out instead), no ids only Tether can use (documents, page instances, elements), nothing
 * repeated that an earlier answer already gave, and explanations in the request's one language.
 * Diagnostics travel in the envelope's `meta`, and only when the request asks (`debug: true`).
 */
import { z } from 'zod';
import type { ChoiceRule } from '../model/explain.ts';
import type { ActionKind, FieldKind, SignIn, StepOutcome } from '../page/pageProtocol.ts';
import type { Truncation } from '../page/textPiece.ts';

/*
 * context — a schema as well as a type: the bridge merges the answers of every connected profile
 * and believes only what fits.
 */
export interface ContextTab {
  tabId: number;
  title: string;
  url: string;
  writable: boolean;
  /** The account the page showed when Tether last looked, if any. */
  account?: string;
  /** The agent whose task holds the tab as its write target (`yours`: the agent that asks). */
  heldBy?: { agent: string; since: string; task?: string; until?: string; yours?: true };
}

export interface ContextProgram {
  id: string;
  label: string;
  status: 'running' | 'scheduled';
  /** The program's write target, one of the workspace's tabs. */
  tabId: number;
  dueAt?: string;
}

export interface ContextWorkspace {
  id: string;
  name: string;
  tabs: ContextTab[];
  /** The workspace's active tab when the request arrived. */
  requestTimeTab?: number;
  /** The tab the person is looking at, when it is in this workspace. */
  view?: number;
  programs?: ContextProgram[];
}

export interface ContextProfile {
  id: string;
  label: string;
  workspaces: ContextWorkspace[];
}

export interface ContextResult {
  profiles: ContextProfile[];
  /** How to use the tools; only when context was called with no arguments. */
  usage?: string;
}

// The types are written out (the testing kit's declarations name them, and a tester has no zod);
// the schemas are checked against them here and, both ways, in shared/agent/resultTypes.test.ts.
const contextTabSchema = z.object({
  tabId: z.number(),
  title: z.string(),
  url: z.string(),
  writable: z.boolean(),
  account: z.string().optional(),
  /** The agent whose task holds the tab as its write target (`yours`: the agent that asks). */
  heldBy: z
    .object({ agent: z.string(), since: z.string(), task: z.string().optional(), until: z.string().optional(), yours: z.literal(true).optional() })
    .optional(),
}) satisfies z.ZodType<ContextTab>;

const contextProgramSchema = z.object({
  id: z.string(),
  label: z.string(),
  status: z.enum(['running', 'scheduled']),
  tabId: z.number(),
  dueAt: z.string().optional(),
}) satisfies z.ZodType<ContextProgram>;

const contextWorkspaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  tabs: z.array(contextTabSchema),
  requestTimeTab: z.number().optional(),
  view: z.number().optional(),
  programs: z.array(contextProgramSchema).optional(),
}) satisfies z.ZodType<ContextWorkspace>;

const contextProfileSchema = z.object({
  id: z.string(),
  label: z.string(),
  workspaces: z.array(contextWorkspaceSchema),
}) satisfies z.ZodType<ContextProfile>;

export const contextResultSchema = z.object({
  profiles: z.array(contextProfileSchema),
  usage: z.string().optional(),
}) satisfies z.ZodType<ContextResult>;

/** For shared/agent/resultTypes.test.ts: the schemas whose output must be exactly the written-out types. */
export const contextSchemas = { contextTabSchema, contextProgramSchema, contextWorkspaceSchema, contextProfileSchema, contextResultSchema };

/* resolve — the tab's url, title and site are in context, and the explanation says them in words. */
export interface ResolvedWrite {
  handle: string;
  tabId: number;
  /** The account the page showed at resolve; left out when none was seen. */
  account?: string;
  rule: ChoiceRule;
}

export interface ResolvedReference {
  handle: string;
  tabId: number;
}

export interface ResolveResult {
  /** Left out when the request only reads. */
  write?: ResolvedWrite;
  /** Left out when the request names none. */
  references?: ResolvedReference[];
  /** One line for the person: which site, which account, what is only read, and why. */
  explanation: string;
  program?: { id: string; label: string; continued: boolean };
}

/* inspect */
export interface FieldView {
  name: string;
  kind: FieldKind;
  /** The label the page shows, when it says more than the name. */
  label?: string;
  length: number;
  hash: string;
  focused?: true;
  editedByPerson?: true;
  options?: string[];
  /** A file chooser (kind `file`): the types it accepts ([]: any file), and whether one choice holds several files. */
  accept?: string[];
  multiple?: boolean;
}

export interface ActionView {
  name: string;
  kind: ActionKind;
  /** The label on the button, when it says more than the name. */
  label?: string;
  /**
   * Only when the page repeats this control (a Reply under every comment): how many more controls
   * with the same label (digits aside: "Like 3", "Like 12") it has, shown or not. They are left out of `actions`;
   * the name means the first of them.
   */
  repeated?: number;
}

/** The page's address, title and the handle's role are in context and resolve already: not repeated. */
export interface InspectResult {
  signIn: { state: SignIn['state']; account?: string };
  /** Only when a draft is in progress: why Tether thinks so. */
  draft?: { reasons: string[] };
  /** Not through a reference handle: nothing can be written through it. */
  fields?: FieldView[];
  /** Not through a reference handle: nothing can be pressed through it. Editor chrome (bold, undo, element paths) is never an action. */
  actions?: ActionView[];
  /** Regions `read` can name (e.g. a post's title and body); through a reference handle, also the fields that hold text. */
  readable?: string[];
  /** The text of what `read` named (at most 50,000 characters of each). */
  text?: Record<string, string>;
  /**
   * Only for a text that is not whole here, by name: `returned` characters of `total` (UTF-16 code
   * units), from `from` (when not 0), and `next`, where to read on (`from: {name: next}`), while
   * more remains.
   */
  truncated?: Record<string, Truncation>;
  /**
   * Only where Tether read a text another way than asked, by name: why. `article` falls back to the
   * page's main region (or its whole body) when the reader view finds no article or cannot read
   * the page.
   */
  fallback?: Record<string, string>;
  /** Names in `read` the page does not have. */
  unknown?: string[];
  /**
   * The images a person sees in what `read` named, by name (an image step's source names one:
   * `{ref: handle, image: name}`): alt text, pixel size, the region, and the first words of the
   * paragraph it follows. Never the bytes.
   */
  images?: Array<{ name: string; alt: string; width: number; height: number; region: string; after?: string }>;
  /**
   * Only when the site's adapter did not match the page, all or part: who read it ("generic",
   * or the adapter's id when the generic model only added fields) and what happened, in words.
   */
  adapter?: string;
  adapterProblem?: string;
}

/* act */
/**
 * How each step went, by its index in the plan (the plan says what it was): verified, and for a
 * write the editor family, the path the text went in by, and for markdown/html what was kept and
 * dropped.
 */
export type ActStep = Omit<StepOutcome, 'beforeHash' | 'afterHash' | 'op' | 'target'>;

export interface ActDone {
  requestId: string;
  /** One entry per step of the plan, by its index. */
  steps: ActStep[];
  /** The page's address after the plan ran (a publish may have moved it). */
  url: string;
  /** What was done, in words. */
  done: string;
  /** `release: true`: the agent's hold on the tab ended with this act. */
  released?: { tabId: number };
}

/** An act with `release: true` and no plan: the hold on the tab is released, nothing else done. */
export interface ActReleased {
  released: { tabId: number };
}

export interface ActScheduled {
  requestId: string;
  scheduled: { id: string; at: string; program: string };
  /** What will be done, in words. */
  will: string;
}

export type ActResult = ActDone | ActScheduled | ActReleased;

/** Each tool's result, by tool name. */
export interface ToolResults {
  context: ContextResult;
  resolve: ResolveResult;
  inspect: InspectResult;
  act: ActResult;
}

export type ToolResult = ToolResults[keyof ToolResults];
