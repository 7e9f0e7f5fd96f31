/** What the MCP side needs from the browser side: send one agent call, get one envelope back. */
import type { AgentIdentity } from '../../shared/agent/agentIdentity.ts';
import type { Envelope, ToolName } from '../../shared/agent/agentProtocol.ts';

export interface AgentCall {
  tool: ToolName;
  args: unknown;
  /** The MCP session that makes the call; travels in the envelope of every hop (see agentIdentity.ts). */
  agent?: AgentIdentity;
}

export interface Link {
  call(call: AgentCall): Promise<Envelope>;
}
