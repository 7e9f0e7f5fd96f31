/**
 * Tether's call into the WordPress block editor's own model, in the page's main world: a fill of
 * the whole post (the editor's own `pasteHandler` makes the blocks of Tether's HTML, as its
 * clipboard handler does for a paste, and `replaceBlocks` puts them in place of every top-level
 * block, one undo level), only while the store still reads as the act module saw it; a photo
 * through the editor's `mediaUpload` setting (what WordPress sets to @wordpress/editor's
 * `mediaUpload`, @wordpress/media-utils' `uploadMedia` posting to the REST `/wp/v2/media` route),
 * then a core/image block with the stored address and the alt inserted through the
 * `core/block-editor` store (`insertBlocks`); a rollback's `removeBlocks` of that block; and a
 * read of the store's blocks. The act module asks the worker during an act (shared/pageChannel.ts
 * PagePortCall); the worker checks the call against these schemas and the bound document, and runs
 * background/adapters/blockEditorMain.ts there, once per call.
 *
 * What comes back is the page's word only: the act module re-reads the rendered blocks in its own
 * (isolated) world before it believes any of it (content/editors/wordpress/media.ts).
 */
import { z } from 'zod';
import { IMAGE_TYPES, MAX_IMAGE_BASE64 } from '../imageBytes.ts';

/** A store client id as @wordpress/blocks makes them (a UUID v4), nothing else. */
const clientId = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
/** A stored image's address: http(s), of a readable size. */
export const MAX_URL_CHARS = 2048;
/** At most this many blocks (top level and inner) are listed back; a longer post is not written. */
export const MAX_LISTED_BLOCKS = 5000;
/** What a fill may carry (Tether's HTML and its text), and the store's text read back. */
export const MAX_FILL_CHARS = 2_000_000;
/** The store's state in a few characters (a hash of every block's id, name and attributes), read then expected. */
const fingerprint = z.string().regex(/^[0-9a-f]{1,32}$/);

const editor = { editor: z.literal('wordpress-block-editor') };

export const blockEditorCallSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('read'), ...editor }),
  /**
   * One photo through the editor's mediaUpload, then a core/image block at the stored address with
   * `alt`, after the block `after` (its client id) or at the end of the post.
   */
  z.strictObject({
    op: z.literal('insert-image'),
    ...editor,
    name: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,100}$/)
      .max(100),
    type: z.enum(IMAGE_TYPES),
    bytes: z.string().max(MAX_IMAGE_BASE64),
    alt: z.string().max(2000),
    after: clientId.nullable(),
    /** How long the upload may take in the page before the function gives up on it (and inserts nothing). */
    limitMs: z.number().int().min(1000).max(60_000),
  }),
  /**
   * A fill: `html` (and `text`, its plain text, as a paste's two flavours) through the editor's
   * `pasteHandler` into blocks, put in place of the top-level blocks `replace` (in order) with
   * `replaceBlocks` — only if the store's fingerprint is still `expect` right before (the person
   * typed nothing since the act module read it); a store with no blocks yet (`replace` empty) gets
   * them with `insertBlocks`. Nothing pasted (a clear): one empty paragraph.
   */
  z.strictObject({
    op: z.literal('replace'),
    ...editor,
    html: z.string().max(MAX_FILL_CHARS),
    text: z.string().max(MAX_FILL_CHARS),
    replace: z.array(clientId).max(MAX_LISTED_BLOCKS),
    expect: fingerprint,
  }),
  /** The core/image block `clientId` out, if its url is still `url` (a rollback's). */
  z.strictObject({ op: z.literal('remove-image'), ...editor, clientId, url: z.string().max(MAX_URL_CHARS) }),
]);
export type BlockEditorCall = z.infer<typeof blockEditorCallSchema>;

/** A block as the store lists it back: its client id, name, the image's url and alt, and where it sits. */
export const listedBlockSchema = z.strictObject({
  clientId,
  name: z.string().max(200),
  /** The parent's client id ('' for the top level). */
  parent: z.string().max(36),
  url: z.string().max(MAX_URL_CHARS).optional(),
  alt: z.string().max(2000).optional(),
});
export type ListedBlock = z.infer<typeof listedBlockSchema>;

export const BLOCK_EDITOR_FAILURES = [
  'missing',
  'shape',
  'threw',
  'upload',
  'timeout',
  'too-large',
  'host',
  'invalid',
  'not-acting',
  'failed',
  'changed',
] as const;

export const blockEditorAnswerSchema = z.union([
  z.strictObject({
    ok: z.literal(true),
    blocks: z.array(listedBlockSchema).max(MAX_LISTED_BLOCKS),
    /** insert-image: the new block's client id and the stored address the upload answered. */
    inserted: z.strictObject({ clientId, url: z.string().max(MAX_URL_CHARS) }).optional(),
    /** The store's state (see `replace`'s `expect`). */
    fingerprint: fingerprint.optional(),
    /** The store's text: one line per top-level block (a block with inner blocks, one per inner one), its rich text as text. */
    text: z.string().max(MAX_FILL_CHARS).optional(),
  }),
  z.strictObject({ ok: z.literal(false), reason: z.enum(BLOCK_EDITOR_FAILURES), message: z.string().max(300).optional() }),
]);
export type BlockEditorAnswer = z.infer<typeof blockEditorAnswerSchema>;

/** A call for the block editor (rather than SmartEditor ONE's, shared/smartEditorCall.ts). */
export function isBlockEditorCall(request: unknown): boolean {
  return typeof request === 'object' && request !== null && (request as { editor?: unknown }).editor === 'wordpress-block-editor';
}
