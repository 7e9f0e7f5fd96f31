/**
 * Tether's content script. It runs in the isolated world of every http(s) page, listens to
 * nothing the page can forge (no window.postMessage, only trusted events), and answers only its
 * own extension's service worker, for this exact document. What only an act needs (plan checks,
 * writes, editor drivers, markdown) is the act module, injected on demand (see actContract.ts); the
 * site adapters come the same way, only into pages they claim (see sitesContract.ts), and the reader
 * view (Readability) only into pages whose article or comments are read (see readerContract.ts);
 * each meets the content script through its slot (moduleSlot.ts).
 */
import { defineOwnGlobal, ownGlobal } from './isolatedGlobal.ts';
import { draftState, rememberTetherWrite } from './inspectPage.ts';
import { watchPageInstance } from './pageInstance.ts';
import { readPageModel } from './pageModel.ts';
import { elementId, seenElement } from './elementIds.ts';
import { asTether, lastEditBy, personIsTyping, watchDocument } from './personActivity.ts';
import { currentActPort, registerPageChannel } from './pageChannelServer.ts';
import { actSlot, readerSlot, sitesSlot } from './moduleSlot.ts';

const MARKER = Symbol.for('tether.contentScript');

// The worker injects this script into tabs opened before install; never register twice. The
// marker is the isolated world's own property under a Symbol: a page's `<div id=…>` cannot fake it.
if (ownGlobal<true>(MARKER) !== true) {
  defineOwnGlobal(MARKER, true);
  sitesSlot.open(null);
  readerSlot.open(null);
  actSlot.open({
    readPageModel: () => readPageModel(),
    draftState,
    rememberTetherWrite,
    personIsTyping: (element) => personIsTyping(element),
    lastEditBy,
    asTether,
    watchDocument,
    elementId,
    seenElement,
    actPort: currentActPort,
  });
  registerPageChannel();
  watchPageInstance();
  watchDocument(document);
  const watchFrame = (frame: HTMLIFrameElement): void => {
    try {
      if (frame.contentDocument) watchDocument(frame.contentDocument);
    } catch {
      // cross-origin frame: not ours
    }
  };
  document.querySelectorAll('iframe').forEach(watchFrame);
  // Same-origin editor iframes load later; watch each as it loads (load does not bubble, but captures).
  document.addEventListener(
    'load',
    (event) => {
      const target = event.target as Element | null;
      if (target?.tagName === 'IFRAME') watchFrame(target as HTMLIFrameElement);
    },
    true,
  );
}
