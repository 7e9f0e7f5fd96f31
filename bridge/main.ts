/**
 * `npx tether-mcp`: the MCP server (stdio). It reaches browsers through their native hosts (the
 * primary path, nothing to paste) and through its share of the loopback WebSocket (the fallback
 * for a browser paired with a token).
 *   install [--browser NAME]… [--browser-profile-dir DIR]… [--extension-id ID]…
 *                   install the native host for the browsers found here (or those named)
 *   uninstall       remove it again
 *   --print-token   print the pairing token to paste into Tether's panel, then exit
 *   --hub           run only the loopback bridge (no stdio MCP)
 * Environment: TETHER_PORT (default 17345), TETHER_TOKEN (overrides the stored token),
 * TETHER_CONFIG_DIR (where the token is kept), TETHER_HOME (default ~/.tether: the installed host
 * and the run folder where hosts publish their sockets).
 */
import { AgentLinks } from './agentLinks.ts';
import { BridgeNode } from './bridgeNode.ts';
import { loadConfig, type BridgeConfig } from './config.ts';
import { install, planInstall, uninstall } from './install.ts';
import { serveStdio } from './mcpServer.ts';
import { NativeHosts } from './nativeHosts.ts';
import { runDirOf, tetherHome } from './runDir.ts';

function log(line: string): void {
  process.stderr.write(`[tether-mcp] ${line}\n`);
}

const argv = process.argv.slice(2);
if (argv[0] === 'install' || argv[0] === 'uninstall') {
  try {
    const plan = planInstall(argv.slice(1));
    const print = (line: string) => process.stdout.write(`${line}\n`);
    if (argv[0] === 'install') install(plan, print);
    else uninstall(plan, print);
    process.exit(0);
  } catch (error) {
    log((error as Error).message);
    process.exit(1);
  }
}

const args = new Set(argv);
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

const quiet = args.has('--quiet') ? () => undefined : log;
const node = new BridgeNode(config.port, config.token, `pid ${process.pid}`, quiet);
const native = args.has('--hub') ? null : new NativeHosts(runDirOf(tetherHome()), config.token, `pid ${process.pid}`, quiet);
native?.start();
await node.start();

const stop = () => {
  native?.close();
  void node.stop().then(() => process.exit(0));
};

if (!args.has('--hub')) {
  const server = await serveStdio(new AgentLinks(native, node));
  server.onclose = stop;
  process.stdin.on('end', stop);
} else {
  // Never the token itself: this line ends up in logs (npm start's, a terminal's scrollback).
  log(config.tokenFile ? `pairing token stored in ${config.tokenFile}; print it with \`npx -y tether-mcp --print-token\`` : 'pairing token from TETHER_TOKEN');
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop);
