/**
 * Tether's content script. It runs in the isolated world of every http(s) page, listens to
 * nothing the page can forge (no window.postMessage, only trusted events), and answers only its
 * own extension's service worker, for this exact document.
 */
import { watchPageInstance } from './pageInstance.ts';
import { watchDocument } from './personActivity.ts';
import { registerPageChannel } from './registration.ts';

const marker = '__tetherContentScript';
const scope = globalThis as typeof globalThis & { [marker]?: boolean };

// The worker injects this script into tabs opened before install; never register twice.
if (!scope[marker]) {
  scope[marker] = true;
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
