/**
 * What the MCP server says of itself in its answer to `initialize`: one definition for the SDK's
 * Server (mcpServer.ts) and for the early answer given before the SDK is loaded (earlyAnswers.ts).
 */
import { USAGE } from '../../shared/agent/usage.ts';
import { TETHER_VERSION } from '../version.ts';

export const SERVER_INFO = { name: 'tether', version: TETHER_VERSION };
export const SERVER_CAPABILITIES = { tools: {} };
export const SERVER_INSTRUCTIONS = USAGE;
