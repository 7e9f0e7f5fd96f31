/**
 * The function the worker runs in a page's main world for a CodeMirror 6 editor, once per call
 * (shared/page/codemirrorCall.ts; `scripting.executeScript({ world: "MAIN", func, args })`, the
 * bound top document only). Self-contained (the browser serializes it), and it leaves nothing
 * behind: no global, no listener, no timer. Everything it touches may be the page's, so it returns
 * only values it built (the text cut to its limit), which the worker and the act module check.
 */
import type { CodemirrorAnswer, CodemirrorCall } from '../../shared/page/codemirrorCall.ts';

export function codemirrorMain(call: CodemirrorCall, origin: string): CodemirrorAnswer {
  if (location.origin !== origin) return { ok: false, reason: 'host', message: 'the tab left the page Tether checked' };
  const LIMIT = 2_000_000;
  const short = (value: unknown): string => {
    try {
      return String(value).slice(0, 300);
    } catch {
      return '';
    }
  };
  try {
    type Any = Record<string, unknown> | null | undefined;
    const content = document.querySelectorAll('.cm-content')[call.index] as (Element & { cmTile?: Any; cmView?: Any }) | undefined;
    if (!content) return { ok: false, reason: 'missing', message: 'no CodeMirror editor there' };
    // As EditorView.findFromDOM: 6.4x keeps a Tile on the content element (its root, a DocTile, has
    // the view); older 6.x a ContentView (its rootView, a DocView, has it).
    const tile = content.cmTile;
    const old = content.cmView;
    const root = (tile?.root ?? (old?.rootView as Any)) as Any;
    const view = root?.view as Record<string, unknown> | undefined;
    // The view whose content element this is, not some object that says it is a view.
    if (!view || view.contentDOM !== content) return { ok: false, reason: 'missing', message: 'no CodeMirror view on that element' };
    type Fn = (...args: unknown[]) => unknown;
    const read = (): CodemirrorAnswer => {
      const state = view.state as Record<string, unknown> | undefined;
      const doc = state?.doc as Record<string, unknown> | undefined;
      const length = doc?.length;
      if (typeof length !== 'number' || length > LIMIT) return { ok: false, reason: 'invalid', message: 'the document is not one Tether reads' };
      const text = (doc?.toString as Fn | undefined)?.call(doc);
      const main = (state?.selection as Record<string, unknown> | undefined)?.main as Record<string, unknown> | undefined;
      const anchor = main?.anchor;
      const head = main?.head;
      if (typeof text !== 'string' || typeof anchor !== 'number' || typeof head !== 'number')
        return { ok: false, reason: 'invalid', message: 'the editor answered in an unexpected shape' };
      return { ok: true, text: text.slice(0, LIMIT), anchor, head };
    };
    if (call.op === 'select') {
      const now = read();
      if (!now.ok) return now;
      if (now.text.length !== call.length) return { ok: false, reason: 'changed', message: 'the text changed since Tether read it' };
      const from = call.from ?? 0;
      const to = call.to ?? from;
      if (from > now.text.length || to > now.text.length) return { ok: false, reason: 'invalid', message: 'the range lies outside the text' };
      // Selection only (no change to the text); scrollIntoView also has the view draw that line.
      (view.dispatch as Fn).call(view, { selection: { anchor: from, head: to }, scrollIntoView: true, userEvent: 'select' });
    }
    return read();
  } catch (error) {
    return { ok: false, reason: 'threw', message: short(error instanceof Error ? error.message : error) };
  }
}
