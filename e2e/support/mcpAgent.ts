/**
 * A real MCP client that spawns the compiled MCP server, as an agent's host would from the
 * README's config: the testing kit's (testing/agent.ts), which `tether-mcp/testing` gives testers
 * as `tether.agent`. `pair` takes a TetherClient of either browser.
 */
export { McpAgent, type AgentOptions } from '../../testing/agent.ts';
