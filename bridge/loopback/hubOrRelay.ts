/**
 * One bridge process: the hub if it can bind the port, otherwise a relay to the process that did.
 * Many MCP clients each start their own `tether-mcp`; they share one port and one set of browser
 * connections this way. When the hub exits, its relays hold the election again.
 */
import type { Envelope } from '../../shared/agent/agentProtocol.ts';
import { Hub, NOT_CONNECTED_HINT, refusal } from './hub.ts';
import type { AgentCall, Link } from '../mcp/browserLink.ts';
import { Relay } from './relay.ts';

export type NodeRole = 'hub' | 'relay' | 'starting';

export class BridgeNode implements Link {
  private link: Hub | Relay | null = null;
  private stopped = false;
  private problem: string | null = null;
  private retry: ReturnType<typeof setTimeout> | undefined;
  /** Called when this process becomes the hub (its port) or stops being it (null). */
  onHub: (port: number | null) => void = () => undefined;

  constructor(
    private readonly port: number,
    private readonly token: string,
    private readonly agentName: string,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  role(): NodeRole {
    return this.link instanceof Hub ? 'hub' : this.link instanceof Relay ? 'relay' : 'starting';
  }

  async start(): Promise<NodeRole> {
    await this.elect();
    return this.role();
  }

  private later(): void {
    if (this.stopped) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.elect(), 200 + Math.random() * 800);
  }

  private async elect(): Promise<void> {
    if (this.stopped) return;
    const hub = new Hub(this.port, this.token, this.log);
    try {
      await hub.listen();
      this.link = hub;
      this.problem = null;
      this.log(`hub on 127.0.0.1:${this.port}`);
      this.onHub(this.port);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') {
        this.problem = `cannot listen on 127.0.0.1:${this.port}: ${(error as Error).message}`;
        this.log(this.problem);
        this.later();
        return;
      }
    }
    const relay = new Relay(this.port, this.token, this.agentName, this.log);
    try {
      await relay.connect();
      this.link = relay;
      this.problem = null;
      relay.onClose = () => {
        this.link = null;
        this.log('hub went away; electing again');
        this.later();
      };
      this.log(`relay to the hub on 127.0.0.1:${this.port}`);
    } catch (error) {
      this.problem = (error as Error).message;
      this.log(`cannot reach the hub: ${this.problem}`);
      this.later();
    }
  }

  /** The browser profiles linked to this process's hub itself (not through a relay or a host). */
  directProfiles(): string[] {
    return this.link instanceof Hub ? this.link.profiles().map((profile) => profile.id) : [];
  }

  call(call: AgentCall): Promise<Envelope> {
    if (!this.link) {
      const why = this.problem ? ` (${this.problem})` : '';
      return Promise.resolve(refusal(call.tool, 'browser_not_connected', `Tether's bridge is not ready${why}. ${NOT_CONNECTED_HINT}`));
    }
    return this.link.call(call);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    if (this.link instanceof Hub) {
      this.onHub(null);
      await this.link.close();
    } else this.link?.close();
    this.link = null;
  }
}
