/**
 * Where the kit finds what the package ships, relative to its own file: `testing/` in the
 * repository and `dist-testing/` in the package both sit next to `dist/` (the extension, built by
 * `npm run build`) and `dist-bridge/` (the MCP server and native host).
 */
import { join, resolve } from 'node:path';

export const PACKAGE_ROOT = resolve(import.meta.dirname, '..');
/** The compiled `tether-mcp` (what `npx tether-mcp` runs). */
export const TETHER_MCP = join(PACKAGE_ROOT, 'dist-bridge', 'tether-mcp.js');
/** The product build of the extension (`npm run build`): the one the package ships. */
export const EXTENSION_DIR = join(PACKAGE_ROOT, 'dist');
