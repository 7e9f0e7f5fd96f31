/**
 * The one call Tether makes into a page's main world: SmartEditor ONE's own document model
 * (Naver Blog, Naver Cafe), read or written through `SmartEditor._editors.<key>`, as public
 * posting scripts do (README "Editors"). The act module asks the worker during an act
 * (shared/pageChannel.ts PagePortCall); the worker checks the call against these schemas and the
 * bound document's address, and runs background/adapters/smartEditorMain.ts there, once per call.
 *
 * What comes back is the page's word only: the act module re-reads the rendered document in its
 * own (isolated) world before it believes any of it.
 */
import { z } from 'zod';
import { SMART_EDITOR_FRAMES, SMART_EDITOR_KEYS } from './smartEditorNames.ts';

export { SMART_EDITOR_FRAMES, SMART_EDITOR_KEYS };
export type { SmartEditorKey, SmartEditorRef } from './smartEditorNames.ts';

/** A document model larger than this is not read or written (a long post with photos is well under 1 MB). */
export const MAX_MODEL_CHARS = 2_000_000;
export const MAX_TITLE_CHARS = 10_000;

const where = { frame: z.enum(SMART_EDITOR_FRAMES).nullable(), key: z.enum(SMART_EDITOR_KEYS) };

export const smartEditorCallSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('read'), ...where }),
  /** setDocumentData(data); then, if the title is not `title`, setDocumentTitle(title) (a body write can reset it). */
  z.strictObject({ op: z.literal('write'), ...where, data: z.string().max(MAX_MODEL_CHARS), title: z.string().max(MAX_TITLE_CHARS).nullable() }),
]);
export type SmartEditorCall = z.infer<typeof smartEditorCallSchema>;

/** Why a call did not give a model: no editor object, one shaped otherwise, it threw, or Tether refused to call. */
export const SMART_EDITOR_FAILURES = ['missing', 'shape', 'threw', 'too-large', 'host', 'invalid', 'not-acting', 'failed', 'timeout'] as const;
export type SmartEditorFailure = (typeof SMART_EDITOR_FAILURES)[number];

export const smartEditorAnswerSchema = z.union([
  z.strictObject({ ok: z.literal(true), data: z.string().max(MAX_MODEL_CHARS), title: z.string().max(MAX_TITLE_CHARS).nullable() }),
  z.strictObject({
    ok: z.literal(false),
    reason: z.enum(SMART_EDITOR_FAILURES),
    message: z.string().max(300).optional(),
    /** After a write that threw: the model as the page then says it is, to check nothing changed. */
    data: z.string().max(MAX_MODEL_CHARS).optional(),
  }),
]);
export type SmartEditorAnswer = z.infer<typeof smartEditorAnswerSchema>;
