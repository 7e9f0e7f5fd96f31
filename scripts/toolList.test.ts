import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { toolDefinitions } from '../bridge/mcp/mcpTools.ts';
import { compiledToolList } from './toolList.mjs';

it('the tool list compiled into the built server (__TETHER_TOOL_LIST__) is toolDefinitions()', async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'tether-tool-list-'));
  try {
    expect(await compiledToolList(scratch)).toEqual(toolDefinitions());
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
