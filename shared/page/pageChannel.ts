/**
 * The page channel's names and plain types, without zod: the content script that every page loads
 * imports only this file, so it stays small (shared/page/pageProtocol.ts holds the schemas the worker and
 * the act module check messages with).
 */

export const PAGE_CHANNEL = 'tether.page';

/**
 * The act module: plan validation, writes, editor drivers, markdown and HTML conversion. The worker
 * injects it into the bound document (isolated world, never web-accessible) the first time an act
 * or a markdown read arrives, and it registers itself with the content script already there.
 */
export const ACT_MODULE_FILE = 'content-act.js';

/**
 * The site adapters (content/sites/adapters/): how Naver Blog, Tistory, … lay out their pages. Only pages
 * on a site an adapter claims need them, so the worker injects this file there (the same way as
 * the act module) when the content script asks for it; every other page carries none of it.
 */
export const SITES_MODULE_FILE = 'content-sites.js';

/**
 * The reader module: Mozilla's Readability (the article without the page around it) and the text of
 * comments. Injected the same way, into the bound document, the first time an inspect reads
 * `article` or `comments` there; the page's own reading (fields, regions) needs none of it.
 */
export const READER_MODULE_FILE = 'content-read.js';

export const FIELD_KINDS = ['input', 'textarea', 'contenteditable', 'iframe-editor', 'select', 'rich-editor', 'file'] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

export const ACTION_KINDS = ['publish', 'submit', 'save_draft', 'other'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];
/** Actions whose effect leaves the page: they need the person's approval unless the site allows them. */
export const APPROVAL_ACTION_KINDS: readonly ActionKind[] = ['publish', 'submit'];

/** How inspect returns the text of what `read` names. */
export const READ_FORMATS = ['text', 'markdown'] as const;
export type ReadFormat = (typeof READ_FORMATS)[number];

/** Expectations the worker hands the page, checked at the last moment inside the page. */
export interface PageExpectation {
  pageInstance: string | null;
  url: string;
  account: string | null;
  role: 'write' | 'reference';
}

/** The content script answers every request with this wrapper, so refusals travel as values. */
export type PageReply<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      error: { code: string; message: string; details?: Record<string, unknown> };
      /** The request needs a module in the page (the act module, the site adapters, the reader): the worker injects this file and asks again. */
      load?: typeof ACT_MODULE_FILE | typeof SITES_MODULE_FILE | typeof READER_MODULE_FILE;
    };

/**
 * The port the worker opens to a document's content script (`tabs.connect` by documentId): each
 * request travels as `{ id, request }` and its answer as `{ id, reply }` (or `{ id, failed }`).
 */
export const PAGE_PORT = 'tether.page';
export interface PagePortRequest {
  id: number;
  request: unknown;
}
/** The page's answer, or why it could not make one (an exception in the page: nothing was done). */
export type PagePortReply = { id: number; reply: unknown } | { id: number; failed: string };

/**
 * What the act module asks of the worker while an act runs in this document (the one thing it
 * asks: a call into SmartEditor ONE's own model in the page's main world, shared/page/smartEditorCall.ts),
 * on the act's own port: `{ call, request }` from the page, `{ call, reply }` back. The worker
 * answers only while it waits for an act on that port, and only for that port's document.
 */
export interface PagePortCall {
  call: number;
  request: unknown;
}
export interface PagePortCallReply {
  call: number;
  reply: unknown;
}
