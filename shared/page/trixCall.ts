/**
 * Tether's call into a Trix editor's own model, in the page's main world (Trix keeps its model on
 * the `<trix-editor>` element, `element.editor`, which the isolated world cannot see): read the
 * attachments of its document (`editor.getDocument().getAttachments()`), set an attachment's
 * caption and alt (`attachment.setAttributes`), or remove one (`setSelectedRange` over
 * `getRangeOfAttachment`, then `deleteInDirection`) — the Editor API of Trix's README (trix 2.1.19,
 * checked 2026-12-01). The act module asks the worker during an act; the worker checks the call
 * against these schemas and that the bound document is still the tab's, and runs
 * background/adapters/trixMain.ts there, once per call.
 *
 * What comes back is the page's word only: the act module checks it against Trix's serialized
 * document (the hidden input Trix writes, which the site's form posts) before it believes it.
 */
import { z } from 'zod';

export const MAX_TRIX_EDITORS = 50;
export const MAX_TRIX_ATTACHMENTS = 200;
const url = z.string().max(4096);

export const trixCallSchema = z
  .strictObject({
    kind: z.literal('trix'),
    op: z.enum(['read', 'describe', 'remove']),
    /** Which `<trix-editor>` of the top document, in document order. */
    index: z.number().int().min(0).max(MAX_TRIX_EDITORS),
    /** The `input` attribute the act module saw on that editor: the main world checks it is the same one. */
    input: z.string().max(200).optional(),
    /**
     * describe / remove: the attachment with this Trix id (Attachment's numeric `id`) AND this
     * address — an address alone is no identity: every content attachment (an ActionText mention)
     * and every pending file has the address ''.
     */
    id: z.number().int().optional(),
    url: url.optional(),
    /** describe: the caption and the alt it is given. */
    caption: z.string().max(2000).optional(),
  })
  // describe names a stored photo (an address is required); remove may name a pending one (''), by its id.
  .refine((call) => call.op === 'read' || (call.id !== undefined && call.url !== undefined), 'describe and remove name an attachment by id and url')
  .refine((call) => call.op !== 'describe' || (call.url ?? '').length >= 1, 'describe needs the stored address');
export type TrixCall = z.infer<typeof trixCallSchema>;

export const trixAttachmentSchema = z.strictObject({
  /** Trix's id of the attachment (a number; null when the page's object has none: never taken for ours). */
  id: z.number().int().nullable(),
  url: url,
  href: url,
  caption: z.string().max(4000),
  alt: z.string().max(4000),
  contentType: z.string().max(200),
  /** A file whose upload has not set an address yet (Trix's isPending). */
  pending: z.boolean(),
});
export type TrixAttachment = z.infer<typeof trixAttachmentSchema>;

export const TRIX_FAILURES = ['missing', 'threw', 'host', 'invalid', 'not-acting', 'failed', 'timeout', 'none'] as const;

export const trixAnswerSchema = z.union([
  z.strictObject({
    ok: z.literal(true),
    attachments: z.array(trixAttachmentSchema).max(MAX_TRIX_ATTACHMENTS),
    /** The document's text (its toString: an attachment is U+FFFC). */
    text: z.string().max(2_000_000),
  }),
  z.strictObject({ ok: z.literal(false), reason: z.enum(TRIX_FAILURES), message: z.string().max(300).optional() }),
]);
export type TrixAnswer = z.infer<typeof trixAnswerSchema>;
