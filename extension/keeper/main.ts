/**
 * The keeper's offscreen document (see background/keeper.ts): when the worker's port to it closes
 * without a disarm, the worker was stopped; one runtime message starts it again. At most one wake
 * a second, whatever happens.
 */
import { KEEPER_CHANNEL, KEEPER_PORT } from '../../shared/extension/keeperProtocol.ts';

let lastWake = 0;
let pending: ReturnType<typeof setTimeout> | undefined;

function wake(): void {
  const wait = lastWake + 1_000 - Date.now();
  if (wait > 0) {
    clearTimeout(pending);
    pending = setTimeout(wake, wait);
    return;
  }
  lastWake = Date.now();
  chrome.runtime.sendMessage({ channel: KEEPER_CHANNEL, type: 'wake' }).catch(() => undefined);
}

chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== KEEPER_PORT || port.sender?.id !== chrome.runtime.id) return;
  let disarmed = false;
  port.onMessage.addListener((message: unknown) => {
    if (typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'disarm') disarmed = true;
  });
  port.onDisconnect.addListener(() => {
    if (!disarmed) wake();
  });
});
