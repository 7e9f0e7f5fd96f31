/** Tells open Tether pages (panel, popup, options) to refresh; nobody listening is fine. */
import browser from 'webextension-polyfill';
import { UI_EVENT_CHANNEL, type UiEvent } from '../../shared/extension/uiProtocol.ts';

export function notifyPages(type: UiEvent['type']): void {
  const event: UiEvent = { channel: UI_EVENT_CHANNEL, type };
  browser.runtime.sendMessage(event).catch(() => undefined);
}
