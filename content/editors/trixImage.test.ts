// @vitest-environment happy-dom
/**
 * Trix photos (attacker review, 2026-12-01): a content attachment already in the post (an ActionText
 * mention: no url, no file) is not Tether's. Ours is the attachment whose Trix id was not there
 * before; an address is no identity (a mention's and a pending file's are both ''). A stand-in of
 * the worker's answers (trixMain's shape) and of Trix's serialized hidden input.
 */
import { expect, it } from 'vitest';
import type { ActHost } from '../act/actContract.ts';
import { bindHost } from '../act/actHost.ts';
import type { Editable } from '../editables.ts';
import type { TrixAttachment, TrixCall } from '../../shared/page/trixCall.ts';
import { trixImage } from './trixImage.ts';

const STORED = 'https://notes.example/uploads/lake.png';

it('a mention already in the post is not ours: the upload is taken at once and the mention is never removed', async () => {
  document.body.innerHTML = `<input type="hidden" id="post_body" value=""><trix-editor input="post_body"><div>Hello @kim</div></trix-editor>`;
  const element = document.querySelector<HTMLElement>('trix-editor') as HTMLElement;
  const input = document.getElementById('post_body') as HTMLInputElement;
  const mention: TrixAttachment = { id: 1, url: '', href: '', caption: '', alt: '', contentType: 'mention', pending: false };
  const held: TrixAttachment[] = [mention];
  const calls: TrixCall[] = [];
  const serialize = () => {
    input.value = held
      .filter((item) => item.url !== '')
      .map((item) => `<figure data-trix-attachment='${JSON.stringify({ url: item.url, caption: item.caption })}'></figure>`)
      .join('');
  };
  // The site's upload: the pasted file becomes attachment 2, stored at once.
  element.addEventListener('paste', () => {
    held.push({ id: 2, url: STORED, href: STORED, caption: '', alt: '', contentType: 'image/png', pending: false });
    serialize();
  });
  const answer = (call: TrixCall) => {
    calls.push(call);
    if (call.op !== 'read') {
      const at = held.findIndex((item) => item.id === call.id && item.url === call.url);
      if (at < 0) return { ok: false, reason: 'none' };
      if (call.op === 'remove') held.splice(at, 1);
      else Object.assign(held[at] as TrixAttachment, { caption: call.caption, alt: call.caption });
      serialize();
    }
    return { ok: true, attachments: held.map((item) => ({ ...item })), text: 'Hello @kim\ufffc\n' };
  };
  const listeners: Array<(message: unknown) => void> = [];
  const port = {
    onMessage: { addListener: (fn: (message: unknown) => void) => listeners.push(fn), removeListener: () => undefined },
    onDisconnect: { addListener: () => undefined, removeListener: () => undefined },
    postMessage: ({ call, request }: { call: number; request: TrixCall }) => {
      const reply = answer(request);
      queueMicrotask(() => listeners.forEach((fn) => fn({ call, reply })));
    },
  };
  const host: ActHost = {
    readPageModel: () => {
      throw new Error('not read here');
    },
    draftState: () => ({ inProgress: false, reasons: [] }),
    rememberTetherWrite: () => undefined,
    personIsTyping: () => null,
    lastEditBy: () => null,
    asTether: (edit) => edit(),
    watchDocument: () => undefined,
    elementId: () => 'id',
    seenElement: () => ({ element: 'id', label: '', fingerprint: 'f' }),
    actPort: () => port as unknown as ReturnType<ActHost['actPort']>,
  };
  bindHost(host);
  const editable = { element, doc: document, frame: null } as unknown as Editable;
  const started = Date.now();
  const outcome = await trixImage.insert?.({
    element,
    doc: document,
    editable,
    width: 1,
    height: 1,
    alt: 'The lake',
    file: new File([new Uint8Array([137, 80, 78, 71])], 'lake.png', { type: 'image/png' }),
  } as Parameters<NonNullable<typeof trixImage.insert>>[0]);
  expect(outcome).toMatchObject({ ok: true, src: STORED });
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(held.map((item) => item.id)).toEqual([1, 2]);
  expect(calls.filter((call) => call.op === 'remove')).toEqual([]);
  expect(calls.every((call) => call.input === 'post_body')).toBe(true);
}, 45_000);
