/**
 * The function the worker runs in a page's main world for a Trix editor, once per call
 * (shared/page/trixCall.ts; `scripting.executeScript({ world: "MAIN", func, args })`, the bound top
 * document only). Self-contained (the browser serializes it), and it leaves nothing behind: no
 * global, no listener, no timer. Everything it touches may be the page's, so it returns only
 * values it built (strings cut to their limits), which the worker and the act module check.
 */
import type { TrixAnswer, TrixCall } from '../../shared/page/trixCall.ts';

export function trixMain(call: TrixCall, origin: string): TrixAnswer {
  if (location.origin !== origin) return { ok: false, reason: 'host', message: 'the tab left the page Tether checked' };
  const text = (value: unknown, limit: number): string => {
    try {
      return typeof value === 'string' ? value.slice(0, limit) : value === undefined || value === null ? '' : String(value).slice(0, limit);
    } catch {
      return '';
    }
  };
  try {
    const element = document.querySelectorAll('trix-editor')[call.index] as (Element & { editor?: unknown }) | undefined;
    // The editor the act module saw (its hidden input's id), not whichever now stands at that index.
    if (call.input !== undefined && text(element?.getAttribute?.('input'), 200) !== call.input)
      return { ok: false, reason: 'missing', message: 'the Trix editor there is not the one Tether saw' };
    type Fn = (...args: unknown[]) => unknown;
    const editor = element?.editor as Record<string, Fn> | undefined;
    if (!editor || typeof editor.getDocument !== 'function') return { ok: false, reason: 'missing', message: 'no Trix editor there' };
    const getDocument = editor.getDocument;
    const documentOf = () => getDocument.call(editor) as Record<string, Fn> | null;
    const attachments = () => {
      const found = documentOf()?.getAttachments?.();
      return Array.isArray(found) ? (found.slice(0, 200) as Array<Record<string, Fn>>) : [];
    };
    const attribute = (attachment: Record<string, Fn>, name: string) => attachment.getAttribute?.(name);
    const stored = (attachment: Record<string, Fn>) => text(attribute(attachment, 'url'), 4096);
    const idOf = (attachment: Record<string, unknown>): number | null => {
      const id = attachment.id;
      return typeof id === 'number' && Number.isInteger(id) ? id : null;
    };
    if (call.op !== 'read') {
      // Id AND address: many attachments share the address '' (content attachments, pending files).
      const target = attachments().find(
        (attachment) => call.id !== undefined && call.url !== undefined && idOf(attachment) === call.id && stored(attachment) === call.url,
      );
      if (!target) return { ok: false, reason: 'none', message: 'no attachment at that address' };
      if (call.op === 'describe') {
        target.setAttributes?.({ caption: call.caption ?? '', alt: call.caption ?? '' });
      } else {
        const range = documentOf()?.getRangeOfAttachment?.(target);
        if (!Array.isArray(range)) return { ok: false, reason: 'none', message: 'the attachment has no place in the document' };
        editor.setSelectedRange?.(range);
        editor.deleteInDirection?.('forward');
      }
    }
    return {
      ok: true,
      attachments: attachments().map((attachment) => ({
        id: idOf(attachment),
        url: stored(attachment),
        href: text(attribute(attachment, 'href'), 4096),
        caption: text(attribute(attachment, 'caption'), 4000),
        alt: text(attribute(attachment, 'alt'), 4000),
        contentType: text(attribute(attachment, 'contentType'), 200),
        pending: attachment.isPending?.() === true,
      })),
      text: text(String(documentOf()), 2_000_000),
    };
  } catch (error) {
    return { ok: false, reason: 'threw', message: text(error instanceof Error ? error.message : error, 300) };
  }
}
