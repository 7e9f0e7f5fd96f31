/**
 * A relay: a bridge process that found the port taken by another (the hub). It forwards its own
 * agent's calls to the hub over the same authenticated loopback WebSocket. If the hub goes away,
 * the node decides again who becomes the hub (see bridgeNode.ts).
 */
import WebSocket from 'ws';
import { BRIDGE_PROTOCOL_VERSION, CLOSE_BAD_TOKEN, bridgeResponseSchema, challengeSchema, welcomeSchema } from '../shared/bridgeProtocol.ts';
import { clientProof, freshNonce, sameProof, serverProof } from '../shared/pairingProof.ts';
import { parseFrame } from '../shared/parseFrame.ts';
import type { Envelope } from '../shared/protocol.ts';
import { refusal, requestTimeoutMs } from './hub.ts';
import type { AgentCall, Link } from './link.ts';

export class Relay implements Link {
  private socket: WebSocket | null = null;
  private readonly pending = new Map<string, { resolve(envelope: Envelope): void; call: AgentCall; timer: ReturnType<typeof setTimeout> }>();
  private nextId = 0;
  onClose: () => void = () => undefined;

  constructor(
    private readonly port: number,
    private readonly token: string,
    private readonly agentName: string,
  ) {}

  /** Connects and authenticates; rejects if nothing listens or the hub refuses the token. */
  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${this.port}/tether`);
      let welcomed = false;
      let serverNonce: string | null = null;
      const clientNonce = freshNonce();
      const handshake = async (frame: unknown): Promise<void> => {
        const challenge = challengeSchema.safeParse(frame);
        if (serverNonce === null && challenge.success) {
          serverNonce = challenge.data.nonce;
          const proof = await clientProof(this.token, serverNonce, clientNonce, 'agent');
          socket.send(JSON.stringify({ type: 'hello', role: 'agent', nonce: clientNonce, proof, version: BRIDGE_PROTOCOL_VERSION, agent: this.agentName }));
          return;
        }
        const welcome = welcomeSchema.safeParse(frame);
        if (serverNonce === null || !welcome.success) return;
        // Talk only to a hub that proved it holds the token too.
        if (!sameProof(welcome.data.proof, await serverProof(this.token, serverNonce, clientNonce))) {
          socket.close();
          reject(new Error('The program on the Tether port could not prove it holds the pairing token.'));
          return;
        }
        welcomed = true;
        this.socket = socket;
        resolve();
      };
      socket.on('message', (data) => {
        const parsed = parseFrame(data);
        if (!welcomed) {
          void handshake(parsed);
          return;
        }
        const response = bridgeResponseSchema.safeParse(parsed);
        if (!response.success) return;
        const pending = this.pending.get(response.data.id);
        if (!pending) return;
        this.pending.delete(response.data.id);
        clearTimeout(pending.timer);
        pending.resolve(response.data.envelope as Envelope);
      });
      socket.once('error', (error) => {
        if (!welcomed) reject(error);
      });
      socket.once('close', (code) => {
        if (!welcomed) {
          reject(new Error(code === CLOSE_BAD_TOKEN ? 'The Tether hub refused this pairing token.' : `closed (${code})`));
          return;
        }
        this.socket = null;
        for (const [id, pending] of this.pending) {
          this.pending.delete(id);
          clearTimeout(pending.timer);
          pending.resolve(refusal(pending.call.tool, 'browser_not_connected', 'The Tether hub went away before it answered; call again (with the same requestId for an act).'));
        }
        this.onClose();
      });
    });
  }

  call(call: AgentCall): Promise<Envelope> {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      return Promise.resolve(refusal(call.tool, 'browser_not_connected', 'Tether’s hub is restarting; call again in a moment.'));
    }
    const id = `a${(this.nextId += 1)}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(refusal(call.tool, 'timeout', 'The hub did not answer in time.'));
      }, requestTimeoutMs(call.tool, call.args) + 5_000);
      this.pending.set(id, { resolve, call, timer });
      socket.send(JSON.stringify({ type: 'request', id, tool: call.tool, args: call.args }));
    });
  }

  close(): void {
    this.onClose = () => undefined;
    this.socket?.close();
  }
}
