/**
 * The content script's message registration: one listener for the page channel. Only Tether's
 * own service worker can reach it (runtime messages from other extensions or pages never arrive
 * here, and `sender.id` is checked anyway); every request is parsed before it is believed.
 */
import browser, { type Runtime } from 'webextension-polyfill';
import { checkAccountNow } from '../shared/checkAccount.ts';
import { tetherError, type TetherError } from '../shared/errors.ts';
import { originOf, urlWithoutFragment } from '../shared/model.ts';
import { PAGE_CHANNEL, pageRequestSchema, type PageExpectation, type PageReply } from '../shared/pageProtocol.ts';
import { inspectPage, observePage } from './inspectPage.ts';
import { pageInstance } from './pageInstance.ts';
import { readPageModel } from './pageModel.ts';
import { actStatus, runPlan } from './runPlan.ts';

function refuse(error: TetherError): PageReply<never> {
  return { ok: false, error };
}

/** The last-moment check inside the page: the same page instance and address, the same account. */
function checkExpectation(expect: PageExpectation): TetherError | null {
  const changed: string[] = [];
  if (expect.pageInstance !== null && expect.pageInstance !== pageInstance()) changed.push('document');
  if (originOf(location.href) !== originOf(expect.url)) changed.push('origin');
  else if (urlWithoutFragment(location.href) !== urlWithoutFragment(expect.url)) changed.push('url');
  if (changed.length > 0) {
    return tetherError('context_changed', 'The page changed since the handle was made (navigation, history change or back/forward). Resolve again.', {
      changed,
      now: { url: location.href },
    });
  }
  if (expect.role === 'write') {
    const account = checkAccountNow({ origin: location.origin, account: expect.account }, readPageModel().signIn);
    if (!account.ok) return account.error;
  }
  return null;
}

async function handle(message: unknown): Promise<PageReply<unknown>> {
  const parsed = pageRequestSchema.safeParse(message);
  if (!parsed.success) return refuse(tetherError('invalid_request', 'Malformed page request.'));
  const request = parsed.data;
  switch (request.type) {
    case 'observe':
      return { ok: true, value: observePage() };
    case 'inspect': {
      const problem = checkExpectation(request.expect);
      if (problem) return refuse(problem);
      return { ok: true, value: inspectPage(request.read) };
    }
    case 'act': {
      const problem = checkExpectation(request.expect);
      if (problem) return refuse(problem);
      if (request.expect.role !== 'write') {
        return refuse(tetherError('read_only_target', 'This handle is a reference: it may be read, never written. Resolve a write target.'));
      }
      const context = { inspected: request.inspected, elements: request.elements, pins: request.pins };
      return { ok: true, value: await runPlan(request.requestId, request.plan, context, request.dryRun, request.approved) };
    }
    case 'actStatus':
      return { ok: true, value: actStatus(request.requestId) };
  }
}

export function registerPageChannel(): void {
  browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => {
    if (sender.id !== browser.runtime.id || sender.tab !== undefined) return undefined;
    if (typeof message !== 'object' || message === null || (message as { channel?: unknown }).channel !== PAGE_CHANNEL) return undefined;
    return handle(message);
  });
}
