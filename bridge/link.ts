/** What the MCP side needs from the browser side: send one agent call, get one envelope back. */
import type { Envelope, ToolName } from '../shared/protocol.ts';

export interface AgentCall {
  tool: ToolName;
  args: unknown;
}

export interface Link {
  call(call: AgentCall): Promise<Envelope>;
}
