/** The loopback port the bridge listens on unless TETHER_PORT says otherwise (apart from bridgeProtocol.ts's schemas, which the MCP server's start does not need). */
export const DEFAULT_BRIDGE_PORT = 17345;

/**
 * How long a pairing token may be: the bridge's config, the token a person pastes and the one the
 * native host offers its worker for the direct link all hold to the same bounds.
 */
export const TOKEN_MIN_LENGTH = 16;
export const TOKEN_MAX_LENGTH = 200;
