/**
 * `npx tether-mcp`: the MCP server (stdio). It reaches browsers through their native hosts (the
 * primary path, nothing to paste) and through its share of the loopback WebSocket (the fallback
 * for a browser paired with a token).
 *   install [--browser NAME]… [--browser-profile-dir DIR]… [--extension-id ID]… [--dry-run]
 *                   install the native host for the browsers found here (or those named);
 *                   --dry-run prints every folder, file and command it would make, and does nothing
 *   uninstall [--dry-run]
 *                   remove it again
 *   --print-token   print the pairing token to paste into Tether's panel, then exit
 *   --hub           run only the loopback bridge (no stdio MCP)
 * Environment: TETHER_PORT (default 17345), TETHER_TOKEN (overrides the stored token),
 * TETHER_CONFIG_DIR (where the token is kept), TETHER_HOME (default ~/.tether, on Windows
 * %LOCALAPPDATA%\Tether: the installed host and the run folder where hosts publish themselves).
 *
 * An MCP client waits for `initialize` and `tools/list` before its agent can start, so those come
 * first: stdioFrontDoor.ts answers them before the MCP SDK is loaded (the build computed what they
 * say); the SDK's Server (mcpServer.ts, with the SDK in chunks of their own) is loaded once the
 * client has its tools or sends anything else, and the browser side (browserSide.ts, its own
 * chunk) when the client says `initialized`. A tool call that comes sooner waits for
 * them — exactly as it waited for the whole process before.
 */
import type { BrowserLinks } from './mcp/browserSide.ts';
import { builtEarlyFacts } from './mcp/builtFacts.ts';
import { loadConfig, type BridgeConfig } from './config.ts';
import type { Link } from './mcp/browserLink.ts';
import { StdioFrontDoor } from './mcp/stdioFrontDoor.ts';

function log(line: string): void {
  process.stderr.write(`[tether-mcp] ${line}\n`);
}

const argv = process.argv.slice(2);
if (argv[0] === 'install' || argv[0] === 'uninstall') {
  try {
    const { describePlan, install, planInstall, uninstall } = await import('./install/install.ts');
    const plan = planInstall(argv.slice(1));
    const print = (line: string) => process.stdout.write(`${line}\n`);
    if (plan.dryRun) for (const line of describePlan(plan, argv[0])) print(line);
    else if (argv[0] === 'install') install(plan, print);
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
const hubOnly = args.has('--hub');
let browser: Promise<BrowserLinks> | null = null;
const startBrowser = () =>
  (browser ??= import('./mcp/browserSide.ts').then(({ startBrowserLinks }) =>
    startBrowserLinks(config, { native: !hubOnly, log: quiet, direct: process.env.TETHER_DIRECT !== 'off' }),
  ));

const stop = () => {
  if (!browser) process.exit(0);
  void browser.then((links) => links.stop()).then(() => process.exit(0));
};

if (!hubOnly) {
  const link: Link = { call: async (call) => (await startBrowser()).link.call(call) };
  let serving: Promise<unknown> | null = null;
  const initialized = () => setImmediate(startBrowser);
  const door: StdioFrontDoor = new StdioFrontDoor(process.stdin, process.stdout, {
    facts: builtEarlyFacts(),
    needed: () => {
      serving ??= import('./mcp/mcpServer.ts')
        .then(({ serve }) => serve(link, door, initialized))
        .catch((error: unknown) => {
          log(`could not start the MCP server: ${error instanceof Error ? error.message : String(error)}`);
          process.exit(1);
        });
    },
    initialized,
    log,
    // Answers to the last requests (resolved in the same turn) go out before the process ends.
    ended: () => setImmediate(stop),
  });
  door.onclose = stop;
  door.listen();
  // A client that never says `initialized` still gets a bridge the browser can reach.
  setTimeout(startBrowser, 1_000).unref();
} else {
  await startBrowser();
  // Never the token itself: this line ends up in logs (npm start's, a terminal's scrollback).
  log(config.tokenFile ? `pairing token stored in ${config.tokenFile}; print it with \`npx -y tether-mcp --print-token\`` : 'pairing token from TETHER_TOKEN');
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop);
