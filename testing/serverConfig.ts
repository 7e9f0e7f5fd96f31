/** What starts Tether's MCP server from another MCP client (your agent): the same server, reaching the same browser. */
export interface McpServerConfig {
  command: string;
  args: string[];
  env: Record<string, string>;
}
