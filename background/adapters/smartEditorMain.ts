/**
 * The function the worker runs in a Naver page's main world, once per call
 * (`scripting.executeScript({ world: "MAIN", func, args })`, the bound document only): it finds
 * SmartEditor ONE's editor object, reads or writes its document model, and returns the model as
 * JSON text. Self-contained (the browser serializes it; nothing outside it exists there), and it
 * leaves nothing behind: no global, no listener, no timer.
 *
 * It runs among the page's own scripts, so everything it touches may be the page's: it assumes
 * nothing of what it gets back but a string's own length, and returns only values it built (a
 * string, at most MAX_MODEL_CHARS, and the title), which the worker and the act module check.
 * The editor's paths are the public record's (README "Editors"): `SmartEditor._editors.<key>` with
 * getDocumentData / setDocumentData (or the same on its `_documentService`), getDocumentTitle /
 * setDocumentTitle; and one photo to its own uploader, `_videoUploadService._imageUploadService`
 * (`createSourceList(ids, files)`, then `uploadImagesFromFiles(list)`, awaited twice: CSH
 * spike/findings.md §4, 2026-08-28), the File made with the editor frame's own constructor (a
 * File of another realm crashes the live uploader: CPL). For an upload it returns the upload's
 * result as JSON text, whatever its shape: the isolated world decides what of it is a photo.
 */
import type { SmartEditorAnswer, SmartEditorCall } from '../../shared/page/smartEditorCall.ts';

export async function smartEditorMain(call: SmartEditorCall, origin: string): Promise<SmartEditorAnswer> {
  // The origin the worker checked: where the injection could not be pinned to the document
  // (Firefox 140's commit key, frame 0), the tab may have gone elsewhere since. `location` is
  // unforgeable: a page cannot redefine it.
  if (location.origin !== origin) return { ok: false, reason: 'host', message: 'the tab left the page Tether checked' };
  // Repeated here, not imported: the function is run without its module.
  const MAX_MODEL = 2_000_000;
  const MAX_TITLE = 10_000;
  const MAX_UPLOAD_ANSWER = 20_000;
  const words = (value: unknown): string => {
    try {
      return String(value).slice(0, 300);
    } catch {
      return 'unreadable';
    }
  };
  type Fn = (...args: unknown[]) => unknown;
  const method = (owner: unknown, name: string): Fn | null => {
    if ((typeof owner !== 'object' && typeof owner !== 'function') || owner === null) return null;
    const found = (owner as Record<string, unknown>)[name];
    return typeof found === 'function' ? (found as Fn).bind(owner) : null;
  };
  const read = async (get: Fn): Promise<string | null> => {
    const text = JSON.stringify(await get());
    return typeof text === 'string' && text.length <= MAX_MODEL ? text : null;
  };
  try {
    let view: unknown = window;
    // The bound document itself arrives as null, or (Chromium 156's executeScript args were seen
    // to turn a null into undefined, 2026-12-01) as undefined: only a selector means a frame.
    if (typeof call.frame === 'string') {
      const frame = document.querySelector(call.frame);
      view = frame !== null && frame.tagName === 'IFRAME' ? (frame as HTMLIFrameElement).contentWindow : null;
    }
    let editors: unknown;
    try {
      // Same origin only: a frame from elsewhere throws here.
      if (view === null || (view as Window).location.hostname !== location.hostname)
        return { ok: false, reason: 'missing', message: 'no editor frame of this page' };
      editors = ((view as Record<string, unknown>).SmartEditor as Record<string, unknown> | undefined)?._editors;
    } catch {
      return { ok: false, reason: 'missing', message: 'the editor frame is not of this page' };
    }
    const editor = typeof editors === 'object' && editors !== null ? (editors as Record<string, unknown>)[call.key] : undefined;
    if (typeof editor !== 'object' || editor === null) return { ok: false, reason: 'missing', message: `no SmartEditor._editors.${call.key}` };
    if (call.op === 'upload') {
      const videos = (editor as Record<string, unknown>)._videoUploadService;
      const uploader =
        typeof videos === 'object' && videos !== null
          ? (videos as Record<string, unknown>)._imageUploadService
          : (editor as Record<string, unknown>)._imageUploadService;
      const upload = method(uploader, 'uploadImagesFromFiles');
      if (!upload) return { ok: false, reason: 'shape', message: 'no _imageUploadService.uploadImagesFromFiles' };
      const binary = atob(call.bytes);
      const bytes = new Uint8Array(binary.length);
      for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
      const FileOfFrame = (view as unknown as { File: typeof File }).File;
      const file = new FileOfFrame([bytes], call.name, { type: call.type });
      const id = `tether-${Date.now().toString(36)}`;
      const listOf = method(uploader, 'createSourceList');
      let result: unknown;
      try {
        const pending = await upload(listOf ? listOf([id], [file]) : [{ id, source: file }]);
        // A promise of promises (two awaits: CSH); the one photo's is the first.
        result = await (Array.isArray(pending) ? pending[0] : pending);
      } catch (error) {
        let said: string;
        try {
          said = error instanceof Error ? error.message : JSON.stringify(error);
        } catch {
          said = words(error);
        }
        return { ok: false, reason: 'threw', message: `the uploader refused: ${words(said)}` };
      }
      let text: unknown;
      try {
        text = JSON.stringify(result ?? null);
      } catch {
        text = null;
      }
      if (typeof text !== 'string' || text.length > MAX_UPLOAD_ANSWER)
        return { ok: false, reason: 'too-large', message: 'the uploader’s answer is not JSON text of a readable size' };
      return { ok: true, data: text, title: null };
    }
    const service = (editor as Record<string, unknown>)._documentService;
    const get = method(editor, 'getDocumentData') ?? method(service, 'getDocumentData');
    const set = method(editor, 'setDocumentData') ?? method(service, 'setDocumentData');
    if (!get || !set) return { ok: false, reason: 'shape', message: 'no getDocumentData/setDocumentData' };
    if (call.op === 'write') {
      try {
        await set(JSON.parse(call.data));
        const getTitle = method(editor, 'getDocumentTitle');
        const setTitle = method(editor, 'setDocumentTitle');
        if (call.title !== null && getTitle && setTitle && getTitle() !== call.title) await setTitle(call.title);
      } catch (error) {
        const after = await read(get).catch(() => null);
        return { ok: false, reason: 'threw', message: words(error instanceof Error ? error.message : error), ...(after === null ? {} : { data: after }) };
      }
    }
    const data = await read(get);
    if (data === null) return { ok: false, reason: 'too-large', message: 'the document model is not JSON text of a readable size' };
    const getTitle = method(editor, 'getDocumentTitle');
    const title = getTitle ? getTitle() : null;
    return { ok: true, data, title: typeof title === 'string' ? title.slice(0, MAX_TITLE) : null };
  } catch (error) {
    return { ok: false, reason: 'threw', message: words(error instanceof Error ? error.message : error) };
  }
}
