/**
 * The MCP tool list as the build computes it: bridge/mcp/mcpTools.ts compiled and run once, so the
 * built server answers `tools/list` from a constant (scripts/buildBridge.mjs defines it as
 * __TETHER_TOOL_LIST__) instead of building Tether's schemas and converting them at every start.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');

/** toolDefinitions() of the compiled bridge/mcp/mcpTools.ts; `scratch` is a folder for the compiled module (removed after). */
export async function compiledToolList(scratch) {
  const dir = mkdtempSync(join(scratch, 'tools-'));
  const file = join(dir, 'mcpTools.mjs');
  try {
    await build({
      entryPoints: [resolve(root, 'bridge', 'mcp', 'mcpTools.ts')],
      outfile: file,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
    });
    const { toolDefinitions } = await import(pathToFileURL(file).href);
    return toolDefinitions();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
