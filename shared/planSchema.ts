/**
 * An act's plan: ordered steps on named fields and actions. Written with zod/mini, because the
 * content script (injected into every page) checks plans too and should not carry all of zod;
 * the agent protocol (classic zod) embeds these schemas as they are.
 */
import * as z from 'zod/mini';

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

export const stepSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('fill'), field: fieldName, text, format: z.optional(format), expect: z.optional(expectSchema) }),
  z.strictObject({ op: z.literal('append'), field: fieldName, text, format: z.optional(format), expect: z.optional(expectSchema) }),
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
