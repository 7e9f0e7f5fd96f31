/**
 * Chromium's manifest as the build writes it (Firefox's is derived from it): manifest.json, with
 * the version from package.json — the one place the version is set. manifest.json has none.
 */
import baseManifest from '../manifest.json' with { type: 'json' };
import packageJson from '../package.json' with { type: 'json' };

export const extensionManifest = { ...baseManifest, version: packageJson.version };
