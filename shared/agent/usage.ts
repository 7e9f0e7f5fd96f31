/** What `context` with no arguments tells an agent (and the MCP server's instructions): the whole flow, in a few lines. */
export const USAGE = 'context → resolve → inspect → act. On context_changed resolve again; never retry on another tab.';
