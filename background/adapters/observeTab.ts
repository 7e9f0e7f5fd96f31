/**
 * Observing one chosen tab (R1: only after metadata narrowed the choice): sign-in, account and
 * draft state, from the content script of that exact document. What the page showed is kept in
 * the session so the person's UI can show the account seen on each tab and who read the page.
 */
import type { Outcome } from '../../shared/errors.ts';
import type { TabMeta } from '../../shared/model/targetModel.ts';
import type { PageObservation } from '../../shared/page/pageProtocol.ts';
import { askPage } from './askPage.ts';
import { sessionStore } from '../state/store.ts';

export async function observeTab(tab: TabMeta): Promise<Outcome<PageObservation>> {
  if (tab.documentId === null) {
    return { ok: false, error: { code: 'context_changed', message: 'The tab has no loaded page (discarded or loading).', details: { changed: ['document'] } } };
  }
  const observed = await askPage(tab.tabId, tab.documentId, { type: 'observe' });
  if (observed.ok) {
    const { signIn, adapter, adapterProblem } = observed.value;
    await sessionStore.setState((state) => ({
      seen: {
        ...state.seen,
        [String(tab.tabId)]: {
          state: signIn.state,
          account: signIn.account,
          documentId: tab.documentId,
          at: Date.now(),
          adapter,
          ...(adapterProblem === undefined ? {} : { adapterProblem }),
        },
      },
    }));
  }
  return observed;
}
