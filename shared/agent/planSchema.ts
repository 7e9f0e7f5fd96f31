/**
 * An act's plan: ordered steps on named fields and actions. Written with zod/mini, because the
 * content script (injected into every page) checks plans too and should not carry all of zod;
 * the agent protocol (classic zod) embeds these schemas as they are.
 */
import * as z from 'zod/mini';
import { MAX_IMAGE_BASE64, MAX_IMAGES_PER_ACT } from '../imageBytes.ts';

const text = z.string().check(z.maxLength(200_000));
const fieldName = z.string().check(z.minLength(1), z.maxLength(100));

const expectSchema = z
  .strictObject({
    hash: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    text: z.optional(text),
  })
  .check(z.describe('Its hash or text now; default: what inspect saw.'));

export const TEXT_FORMATS = ['text', 'markdown', 'html'] as const;
export type TextFormat = (typeof TEXT_FORMATS)[number];

const format = z.enum(TEXT_FORMATS).check(z.describe('markdown/html: headings, lists, links, bold in rich editors.'));

/**
 * Where an image comes from (docs/protocol.md, "Images"): an image a reference page of the same
 * workspace shows, by its handle and the image's name in that page's inspect (Tether takes the
 * bytes the page shows, never from an address the agent chose); a file the MCP server reads, by
 * absolute path (it adds the bytes as `data`: an agent sends only the path); or small inline bytes
 * (base64) with a name.
 */
export const imageSourceSchema = z
  .union([
    z.strictObject({ ref: z.string().check(z.minLength(1), z.maxLength(200)), image: fieldName }),
    z.strictObject({
      file: z.string().check(z.minLength(1), z.maxLength(4096)),
      /** Filled in by the MCP server, which read the file; never sent by an agent. */
      data: z.optional(z.string().check(z.maxLength(MAX_IMAGE_BASE64))),
    }),
    z.strictObject({ data: z.string().check(z.minLength(1), z.maxLength(MAX_IMAGE_BASE64)), name: z.optional(z.string().check(z.maxLength(200))) }),
  ])
  .check(z.describe('{ref: reference handle, image: its name}, {file: absolute path} or {data: base64, name}'));
export type ImageSource = z.infer<typeof imageSourceSchema>;

/** Images a markdown fill/append places by `![alt](image:KEY)`, by key. */
const imagesSchema = z.record(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,40}$/)), imageSourceSchema).check(
  z.refine((images) => Object.keys(images).length <= MAX_IMAGES_PER_ACT, `at most ${MAX_IMAGES_PER_ACT} images`),
  z.describe('for ![alt](image:KEY): {KEY: source}'),
);

export const stepSchema = z.discriminatedUnion('op', [
  z.strictObject({
    op: z.literal('fill'),
    field: fieldName,
    text,
    format: z.optional(format),
    images: z.optional(imagesSchema),
    expect: z.optional(expectSchema),
  }),
  z.strictObject({
    op: z.literal('append'),
    field: fieldName,
    text,
    format: z.optional(format),
    images: z.optional(imagesSchema),
    expect: z.optional(expectSchema),
  }),
  z.strictObject({
    op: z.literal('image'),
    field: fieldName,
    source: imageSourceSchema,
    alt: z.string().check(z.maxLength(1000)),
    /** Placed after the block whose text starts with this (at the end when left out). */
    after: z.optional(z.string().check(z.minLength(1), z.maxLength(500))),
    expect: z.optional(expectSchema),
  }),
  z.strictObject({ op: z.literal('clear'), field: fieldName, expect: z.optional(expectSchema) }),
  z.strictObject({ op: z.literal('select'), field: fieldName, value: z.string().check(z.maxLength(1000)), expect: z.optional(expectSchema) }),
  z.strictObject({ op: z.literal('click'), action: fieldName }),
]);
export type PlanStep = z.infer<typeof stepSchema>;

export const planSchema = z.strictObject({
  steps: z.array(stepSchema).check(z.minLength(1), z.maxLength(50)),
  continueDraft: z.optional(z.boolean().check(z.describe('Continue the page’s draft.'))),
});
export type Plan = z.infer<typeof planSchema>;
