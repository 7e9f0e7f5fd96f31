/**
 * A DataTransfer and the `paste` event that carries it, as the page's own editor can read them in
 * both browsers. Two things differ in Firefox (firefox-esr 153 and 140), both seen in e2e
 * images.spec's both-browsers tests, 2026-12-01:
 * - Gecko keeps, with each item of a DataTransfer, the principal that set it, and a page's script
 *   reads only items its principal subsumes: an item a content script sets (its expanded principal)
 *   shows in `types` but reads as "" and hides its File. So items are set through the page's view
 *   of the DataTransfer (`wrappedJSObject`: the call then runs as the page).
 * - Its ClipboardEvent constructor ignores `clipboardData` (the event's comes out empty, in a page
 *   of its own too), so TinyMCE's, CKEditor 5's ClipboardObserver and Quill's onCapturePaste would
 *   find nothing: the event gets the DataTransfer as its own `clipboardData`, defined on the page's
 *   view of the event (a property set through the content script's Xray wrapper is invisible to
 *   the page).
 * Both detected by what the browser gives (a `wrappedJSObject`, an empty clipboardData), not by its name.
 */

/** The page's view of a DOM object in a Firefox content script (Xray waived); the object itself elsewhere. */
function pageView<T extends object>(object: T): T {
  return (object as T & { wrappedJSObject?: T }).wrappedJSObject ?? object;
}

/** What a paste or a drop carries: strings by type, then files, set as the page. */
export interface TransferItems {
  strings?: Array<[type: string, value: string]>;
  files?: File[];
}

export function pageTransfer(win: Window & typeof globalThis, items: TransferItems): DataTransfer {
  const data = new win.DataTransfer();
  const page = pageView(data);
  for (const [type, value] of items.strings ?? []) page.setData(type, value);
  for (const file of items.files ?? []) page.items.add(file);
  return data;
}

export function pasteEvent(win: Window & typeof globalThis, data: DataTransfer): ClipboardEvent {
  const event = new win.ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true, composed: true });
  if (event.clipboardData === data) return event;
  Object.defineProperty(pageView(event), 'clipboardData', { value: pageView(data), configurable: true, enumerable: true });
  return event;
}
