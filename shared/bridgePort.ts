/** The loopback port the bridge listens on unless TETHER_PORT says otherwise (apart from bridgeProtocol.ts's schemas, which the MCP server's start does not need). */
export const DEFAULT_BRIDGE_PORT = 17345;
