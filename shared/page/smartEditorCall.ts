/**
 * The one call Tether makes into a page's main world: SmartEditor ONE's own document model
 * (Naver Blog, Naver Cafe), read or written through `SmartEditor._editors.<key>`, as public
 * posting scripts do (README "Editors"). The act module asks the worker during an act
 * (shared/page/pageChannel.ts PagePortCall); the worker checks the call against these schemas and the
 * bound document's address, and runs background/adapters/smartEditorMain.ts there, once per call.
 *
 * What comes back is the page's word only: the act module re-reads the rendered document in its
 * own (isolated) world before it believes any of it.
 */
import { z } from 'zod';
import { IMAGE_TYPES, MAX_IMAGE_BASE64 } from '../imageBytes.ts';
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
  /**
   * One photo to the editor's own uploader (`_imageUploadService.uploadImagesFromFiles`), as a File
   * of the editor frame's realm; the answer's `data` is the upload's result as JSON text (at most
   * MAX_UPLOAD_ANSWER_CHARS), the page's word, checked in the isolated world
   * (content/editors/smartEditorOne/photo.ts) before anything is built from it.
   */
  z.strictObject({
    op: z.literal('upload'),
    ...where,
    name: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,100}$/)
      .max(100),
    type: z.enum(IMAGE_TYPES),
    bytes: z.string().max(MAX_IMAGE_BASE64),
  }),
]);
/** The upload's answer, as JSON text, is not read past this (a photo's answer is a few hundred characters). */
export const MAX_UPLOAD_ANSWER_CHARS = 20_000;
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
