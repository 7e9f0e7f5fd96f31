/**
 * `npx tether-mcp`: the MCP server (stdio) plus its share of the loopback bridge.
 *   --print-token   print the pairing token to paste into Tether's panel, then exit
 *   --hub           run only the bridge (no stdio MCP), e.g. for `npm start`
 * Environment: TETHER_PORT (default 17345), TETHER_TOKEN (overrides the stored token),
 * TETHER_CONFIG_DIR (where the token is kept).
 */
import { BridgeNode } from './bridgeNode.ts';
import { loadConfig, type BridgeConfig } from './config.ts';
import { serveStdio } from './mcpServer.ts';

function log(line: string): void {
  process.stderr.write(`[tether-mcp] ${line}\n`);
}

const args = new Set(process.argv.slice(2));
let config: BridgeConfig;
try {
  config = loadConfig();
} catch (error) {
  log((error as Error).message);
  process.exit(1);
}

if (args.has('--print-token')) {
  process.stdout.write(`${config.token}\n`);
  process.exit(0);
}

const node = new BridgeNode(config.port, config.token, `pid ${process.pid}`, args.has('--quiet') ? () => undefined : log);
await node.start();

if (!args.has('--hub')) {
  const server = await serveStdio(node);
  server.onclose = () => {
    void node.stop().then(() => process.exit(0));
  };
  process.stdin.on('end', () => {
    void node.stop().then(() => process.exit(0));
  });
} else {
  // Never the token itself: this line ends up in logs (npm start's, a terminal's scrollback).
  log(config.tokenFile ? `pairing token stored in ${config.tokenFile}; print it with \`npx tether-mcp --print-token\`` : 'pairing token from TETHER_TOKEN');
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void node.stop().then(() => process.exit(0));
  });
}
