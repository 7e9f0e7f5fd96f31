/**
 * Tether's call into a CodeMirror 6 editor's own state, in the page's main world: CodeMirror draws
 * only the lines near its viewport (a long document shows gaps instead of the rest), so the whole
 * source is read from `view.state.doc` and a place far below is selected with the view's own
 * `dispatch({ selection, scrollIntoView })`, which also draws it. The EditorView is found as
 * `EditorView.findFromDOM` finds it: `.cm-content`'s `cmTile.root.view` (@codemirror/view 6.43.15,
 * dist/index.js Tile/DocTile, checked 2026-12-01) or, in older 6.x, `cmView.rootView.view`
 * (ContentView/DocView). The act module asks the worker during an act; the worker checks the call
 * against these schemas and that the bound document is still the tab's, and runs
 * background/adapters/codemirrorMain.ts there, once per call.
 *
 * What comes back is the page's word only: the act module checks the text against the lines
 * CodeMirror has drawn (each drawn run of lines must be consecutive lines of it, in order) and the
 * selection against the DOM's before it believes either.
 */
import { z } from 'zod';

export const MAX_CODEMIRROR_EDITORS = 50;
/** A post's source: far more than any post (2 MB of text), and a bound on what a page may answer. */
export const MAX_CODEMIRROR_TEXT = 2_000_000;

export const codemirrorCallSchema = z
  .strictObject({
    kind: z.literal('codemirror'),
    op: z.enum(['read', 'select']),
    /** Which `.cm-content` of the top document, in document order. */
    index: z.number().int().min(0).max(MAX_CODEMIRROR_EDITORS),
    /** The document's length the act module expects (select: refused when it differs: the text changed since it read it). */
    length: z.number().int().min(0).max(MAX_CODEMIRROR_TEXT).optional(),
    /** select: the range, as offsets into the document. */
    from: z.number().int().min(0).max(MAX_CODEMIRROR_TEXT).optional(),
    to: z.number().int().min(0).max(MAX_CODEMIRROR_TEXT).optional(),
  })
  .refine(
    (call) => call.op === 'read' || (call.from !== undefined && call.to !== undefined && call.length !== undefined),
    'select names its range and the length it read',
  );
export type CodemirrorCall = z.infer<typeof codemirrorCallSchema>;

export const CODEMIRROR_FAILURES = ['missing', 'threw', 'host', 'invalid', 'not-acting', 'failed', 'timeout', 'changed'] as const;

export const codemirrorAnswerSchema = z.union([
  z
    .strictObject({
      ok: z.literal(true),
      /** `view.state.doc.toString()`: lines joined by "\n" (CodeMirror's own line separator is not kept in it). */
      text: z.string().max(MAX_CODEMIRROR_TEXT),
      /** The main selection, as offsets into it. */
      anchor: z.number().int().min(0),
      head: z.number().int().min(0),
    })
    .refine((answer) => answer.anchor <= answer.text.length && answer.head <= answer.text.length, 'the selection lies in the text'),
  z.strictObject({ ok: z.literal(false), reason: z.enum(CODEMIRROR_FAILURES), message: z.string().max(300).optional() }),
]);
export type CodemirrorAnswer = z.infer<typeof codemirrorAnswerSchema>;

export const isCodemirrorCall = (request: unknown): boolean =>
  typeof request === 'object' && request !== null && (request as { kind?: unknown }).kind === 'codemirror';
