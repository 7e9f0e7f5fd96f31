import { describe, expect, it } from 'vitest';
import { extensionManifest as manifest } from './extensionManifest.ts';
import { FIREFOX_ADDON_ID, firefoxManifest, sidebarPanelOf } from './firefoxManifest.ts';

describe('the Firefox manifest, derived from manifest.json', () => {
  const derived = firefoxManifest(manifest);

  it('runs the background as an event page from the same entry', () => {
    expect(derived.background).toEqual({ scripts: [manifest.background.service_worker], type: 'module' });
  });

  it('shows the panel as a sidebar, and the options page in a tab', () => {
    expect(derived.sidebar_action).toMatchObject({ default_panel: manifest.side_panel.default_path, default_title: manifest.action.default_title });
    expect(sidebarPanelOf(derived)).toBe('extension/panel.html');
    expect(derived.options_ui).toEqual({ page: manifest.options_page, open_in_tab: true });
  });

  it('carries no Chromium-only key or permission', () => {
    for (const key of ['side_panel', 'minimum_chrome_version', 'externally_connectable', 'key', 'options_page']) expect(derived).not.toHaveProperty(key);
    expect(derived.permissions).not.toContain('sidePanel');
    expect(derived.permissions).not.toContain('offscreen');
    expect(derived.permissions).toEqual(manifest.permissions.filter((permission) => permission !== 'sidePanel' && permission !== 'offscreen'));
  });

  it('lets the background reach the loopback bridge over ws:// (no upgrade-insecure-requests)', () => {
    expect(derived.content_security_policy).toEqual({ extension_pages: "script-src 'self'" });
  });

  it('names the add-on and the oldest Firefox it supports (ESR 140), and collects no data', () => {
    expect(derived.browser_specific_settings).toEqual({
      gecko: { id: FIREFOX_ADDON_ID, strict_min_version: '140.0', data_collection_permissions: { required: ['none'] } },
    });
  });

  it('keeps everything else as Chromium has it', () => {
    for (const key of ['manifest_version', 'name', 'version', 'default_locale', 'icons', 'action', 'host_permissions', 'description']) {
      expect(derived[key]).toEqual((manifest as Record<string, unknown>)[key]);
    }
  });

  it('refuses a manifest without a background entry rather than building an add-on without one', () => {
    expect(() => firefoxManifest({ manifest_version: 3 })).toThrow(/service_worker/);
  });
});
