/**
 * The browser side of one `tether-mcp` process: its share of the loopback WebSocket (the hub, or a
 * relay to it) and, for an MCP server, the native hosts it finds. Its own module, loaded only once
 * the MCP handshake is answered (bridge/main.ts): the WebSocket, the sealed channel and the
 * protocol schemas are what most of the server's start would otherwise wait for.
 */
import { AgentLinks } from './callRoutes.ts';
import { BridgeNode } from '../loopback/hubOrRelay.ts';
import type { BridgeConfig } from '../config.ts';
import type { Link } from './browserLink.ts';
import { NativeHosts } from '../native/hostClients.ts';
import { runDirOf, tetherHome } from '../runDir.ts';

export interface BrowserLinks {
  /** Where agent calls go: native hosts first, else the loopback WebSocket. */
  link: Link;
  stop(): Promise<void>;
}

export async function startBrowserLinks(
  config: BridgeConfig,
  options: { native: boolean; log: (line: string) => void; direct?: boolean },
): Promise<BrowserLinks> {
  const agentName = `pid ${process.pid}`;
  const node = new BridgeNode(config.port, config.token, agentName, options.log);
  const native = options.native ? new NativeHosts(runDirOf(tetherHome()), config.token, agentName, options.log) : null;
  // Holding the port, this bridge offers the hosts a direct link from their workers (see AgentLinks).
  if (native && options.direct !== false) node.onHub = (port) => native.offerHub(port);
  native?.start();
  await node.start();
  return {
    link: new AgentLinks(native, node),
    stop: () => {
      native?.close();
      return node.stop();
    },
  };
}
