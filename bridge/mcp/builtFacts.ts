/**
 * What the build (scripts/buildBridge.mjs) computes once so a start does not: the tool list
 * (toolDefinitions() run at build time) and the MCP protocol versions of the bundled SDK. Both are
 * undefined when the bridge runs from source; then the SDK and mcpTools.ts compute them.
 */
import type { EarlyFacts } from './earlyAnswers.ts';
import type { ToolDefinition } from './mcpTools.ts';
import { SERVER_CAPABILITIES, SERVER_INFO, SERVER_INSTRUCTIONS } from './serverIdentity.ts';

declare const __TETHER_TOOL_LIST__: ToolDefinition[] | undefined;
declare const __MCP_PROTOCOL_VERSIONS__: { latest: string; supported: string[] } | undefined;

export const BUILT_TOOL_LIST: ToolDefinition[] | undefined = typeof __TETHER_TOOL_LIST__ === 'undefined' ? undefined : __TETHER_TOOL_LIST__;
export const BUILT_PROTOCOL_VERSIONS: { latest: string; supported: string[] } | undefined =
  typeof __MCP_PROTOCOL_VERSIONS__ === 'undefined' ? undefined : __MCP_PROTOCOL_VERSIONS__;

/** What the early answers (earlyAnswers.ts) say, given the SDK's protocol versions and the tool list. */
export function earlyFacts(protocolVersions: EarlyFacts['protocolVersions'], tools: readonly unknown[]): EarlyFacts {
  return { protocolVersions, serverInfo: SERVER_INFO, capabilities: SERVER_CAPABILITIES, instructions: SERVER_INSTRUCTIONS, tools };
}

/** The early answers' facts, when the build computed them. */
export function builtEarlyFacts(): EarlyFacts | null {
  return BUILT_TOOL_LIST && BUILT_PROTOCOL_VERSIONS ? earlyFacts(BUILT_PROTOCOL_VERSIONS, BUILT_TOOL_LIST) : null;
}
