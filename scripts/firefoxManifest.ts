/**
 * The Firefox manifest, derived from the one manifest.json (which is Chromium's) at build time, so
 * the two builds cannot drift apart. Pure: a manifest in, a manifest out (unit-tested).
 *
 * What differs, and why:
 * - background: Firefox runs MV3 backgrounds as event pages (`background.scripts`) and refuses a
 *   manifest with only `service_worker`.
 * - the panel: Chromium's `side_panel` is Firefox's `sidebar_action`.
 * - `options_page` becomes `options_ui` (opened in a tab, as Chromium does).
 * - the extension-pages CSP: Firefox's MV3 default carries `upgrade-insecure-requests`, which turns
 *   the bridge's `ws://127.0.0.1` into `wss://` (a TLS handshake the loopback server cannot answer).
 * - `browser_specific_settings.gecko`: the add-on id (without one, Firefox makes up a new id per
 *   temporary install and `web-ext lint` refuses), 140 as the oldest Firefox (ESR), and no data
 *   collected (Firefox asks every add-on to say so).
 * - Chromium-only keys are dropped: `minimum_chrome_version`, `externally_connectable` (Firefox
 *   has no external messaging from pages), `key` (Chromium's fixed id), and the `sidePanel` and
 *   `offscreen` permissions.
 */

import { FIREFOX_ADDON_ID } from '../shared/native/nativeProtocol.ts';

export { FIREFOX_ADDON_ID };

export type Manifest = Record<string, unknown>;

export const FIREFOX_MIN_VERSION = '140.0';
/** `script-src 'self'` as Chromium's default has it, without Firefox's `upgrade-insecure-requests`. */
export const FIREFOX_EXTENSION_PAGES_CSP = "script-src 'self'";

const CHROMIUM_ONLY_KEYS = ['minimum_chrome_version', 'externally_connectable', 'key', 'side_panel', 'options_page', 'background'] as const;
const CHROMIUM_ONLY_PERMISSIONS = new Set(['sidePanel', 'offscreen']);

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function firefoxManifest(chromium: Manifest): Manifest {
  const dropped = new Set<string>(CHROMIUM_ONLY_KEYS);
  const manifest: Manifest = Object.fromEntries(Object.entries(chromium).filter(([key]) => !dropped.has(key)));

  const background = record(chromium.background);
  const entry = text(background.service_worker);
  if (!entry) throw new Error('manifest.json has no background.service_worker to build the Firefox event page from');
  manifest.background = { scripts: [entry], ...(background.type === 'module' ? { type: 'module' } : {}) };

  const permissions = Array.isArray(chromium.permissions) ? (chromium.permissions as unknown[]) : [];
  manifest.permissions = permissions.filter((permission) => typeof permission === 'string' && !CHROMIUM_ONLY_PERMISSIONS.has(permission));

  const panel = text(record(chromium.side_panel).default_path);
  if (panel) {
    const title = text(record(chromium.action).default_title);
    manifest.sidebar_action = { default_panel: panel, ...(title ? { default_title: title } : {}), ...(chromium.icons ? { default_icon: chromium.icons } : {}) };
  }
  const options = text(chromium.options_page);
  if (options) manifest.options_ui = { page: options, open_in_tab: true };

  manifest.content_security_policy = { extension_pages: FIREFOX_EXTENSION_PAGES_CSP };
  manifest.browser_specific_settings = {
    gecko: { id: FIREFOX_ADDON_ID, strict_min_version: FIREFOX_MIN_VERSION, data_collection_permissions: { required: ['none'] } },
  };
  return manifest;
}

/** The page the panel is in, which the build must emit (the Vite plugin builds only what Chromium's keys name). */
export function sidebarPanelOf(manifest: Manifest): string | undefined {
  return text(record(manifest.sidebar_action).default_panel);
}
