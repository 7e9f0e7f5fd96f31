/**
 * A relay: a bridge process that found the port taken by another (the hub). It forwards its own
 * agent's calls to the hub over the same paired, sealed loopback WebSocket. If the hub goes away,
 * the node decides again who becomes the hub (see hubOrRelay.ts).
 */
import WebSocket from 'ws';
import { CLOSE_BAD_TOKEN, bridgeResponseSchema } from '../../shared/link/bridgeProtocol.ts';
import { clientPairing } from '../../shared/link/pairingHandshake.ts';
import type { ConnectionFailure, PairedConnection } from '../../shared/link/pairedConnection.ts';
import type { Envelope, ToolName } from '../../shared/agent/agentProtocol.ts';
import { pairSocket, SOCKET_LIMITS } from './pairedWebSocket.ts';
import { refusal, requestTimeoutMs, unsent } from './hub.ts';
import type { AgentCall, Link } from '../mcp/browserLink.ts';
import { PendingCalls } from './pendingCalls.ts';

/** Why the relay could not pair with the program on the port, in words for the log. */
function whyNotPaired(failure: ConnectionFailure | null, code: number): string {
  if (failure?.kind === 'pairing') {
    switch (failure.failure.reason) {
      case 'version_mismatch':
        return `The Tether hub speaks protocol version ${failure.failure.theirs ?? '?'}; update one of the two.`;
      case 'server_unproven':
        return 'The program on the Tether port could not prove it holds the pairing token.';
      default:
        return `The program on the Tether port does not speak Tether's pairing protocol (${failure.failure.reason}).`;
    }
  }
  if (failure?.kind === 'timeout') return 'The program on the Tether port did not complete the pairing handshake in time.';
  if (failure) return `The pairing with the Tether hub failed (${failure.kind}).`;
  return code === CLOSE_BAD_TOKEN ? 'The Tether hub refused this pairing token.' : `closed (${code})`;
}

export class Relay implements Link {
  private connection: PairedConnection | null = null;
  private readonly pending = new PendingCalls<ToolName>('a');
  onClose: () => void = () => undefined;

  constructor(
    private readonly port: number,
    private readonly token: string,
    private readonly agentName: string,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  /** Connects and pairs; rejects if nothing listens, the hub refuses the token, or the program there is not a hub. */
  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${this.port}/tether`, SOCKET_LIMITS);
      let failure: ConnectionFailure | null = null;
      const connection = pairSocket(
        socket,
        clientPairing(this.token, { role: 'agent', agent: this.agentName }),
        {
          paired: () => {
            this.connection = connection;
            resolve();
          },
          message: (value) => {
            const response = bridgeResponseSchema.safeParse(value);
            if (response.success) this.pending.settle(response.data.id, () => response.data.envelope as Envelope);
          },
          failed: (why) => {
            failure = why;
          },
          closed: (code) => {
            if (this.connection !== connection) {
              reject(new Error(whyNotPaired(failure, code)));
              return;
            }
            this.connection = null;
            this.pending.settleAll(
              () => true,
              (tool) => refusal(tool, 'browser_not_connected', 'The Tether hub went away before it answered; call again (with the same requestId for an act).'),
            );
            this.onClose();
          },
        },
        this.log,
      );
    });
  }

  call(call: AgentCall): Promise<Envelope> {
    const connection = this.connection;
    if (!connection) return Promise.resolve(refusal(call.tool, 'browser_not_connected', 'Tether’s hub is restarting; call again in a moment.'));
    const { id, answer } = this.pending.open(call.tool, requestTimeoutMs(call.tool, call.args) + 5_000, () =>
      refusal(call.tool, 'timeout', 'The hub did not answer in time.'),
    );
    connection.send({ type: 'request', id, tool: call.tool, args: call.args, ...(call.agent ? { agent: call.agent } : {}) }).catch((error: unknown) => {
      this.pending.settle(id, () => unsent(call.tool, error, 'the Tether hub'));
    });
    return answer;
  }

  close(): void {
    this.onClose = () => undefined;
    this.connection?.close(1000, 'relay closing');
  }
}
