/**
 * The keeper (Chromium only): an offscreen document that holds a runtime port from the worker.
 * While the native port is open the worker does not idle out, but it can still be stopped by force
 * (DevTools, a crash, CDP `Target.closeTarget`), and then nothing wakes it: its host exits with
 * the port, and the agent's next call would wait for some unrelated browser event. The keeper's
 * port closes when the worker dies; it then sends one runtime message, which starts the worker,
 * whose first act is to open the native port again (measured: a new host 0.1–0.8 s after the
 * stop, on Chromium 150 and 156).
 *
 * Armed only while the native host serves, and disarmed (with a message first) when it stops
 * serving, so it never keeps an idle worker awake. Offscreen documents cannot open native ports
 * themselves (`runtime.connectNative` is undefined there; checked on 150 and 156), which is why
 * the worker holds the port and the keeper only wakes it. Firefox has no offscreen API: there
 * the background page holds the port and nothing else is needed.
 */
import { KEEPER_PORT } from '../../shared/extension/keeperProtocol.ts';

const KEEPER_URL = 'extension/keeper.html';
let guard: chrome.runtime.Port | null = null;
let arming: Promise<void> | null = null;

function offscreenApi(): typeof chrome.offscreen | null {
  return typeof chrome !== 'undefined' && chrome.offscreen ? chrome.offscreen : null;
}

/** Whether this browser can keep a keeper (Chromium); Firefox has no offscreen documents. */
export function keeperAvailable(): boolean {
  return offscreenApi() !== null;
}

export function armKeeper(): Promise<void> {
  const offscreen = offscreenApi();
  if (!offscreen || guard) return Promise.resolve();
  arming ??= (async () => {
    try {
      if (!(await offscreen.hasDocument())) {
        await offscreen.createDocument({
          url: KEEPER_URL,
          reasons: ['WORKERS' as chrome.offscreen.Reason],
          justification:
            'Starts Tether’s service worker again when the browser stops it while an agent is connected, so the agent’s next call is answered at once.',
        });
      }
      const port = chrome.runtime.connect({ name: KEEPER_PORT });
      port.onDisconnect.addListener(() => {
        if (guard === port) guard = null;
      });
      guard = port;
    } catch {
      // Another start created it at the same moment, or the API refused: no keeper this time.
    } finally {
      arming = null;
    }
  })();
  return arming;
}

export function disarmKeeper(): void {
  const port = guard;
  guard = null;
  if (!port) return;
  port.postMessage({ type: 'disarm' });
  port.disconnect();
}
