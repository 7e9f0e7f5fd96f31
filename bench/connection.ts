/**
 * How soon an agent's first call is answered, whatever happened before it, on the native path:
 * the worker stopped by force; the browser started first (and left idle past the worker's 30 s
 * idle timeout); the bridge started first; the bridge restarted. And how long an MCP server takes
 * from its start to answering `tools/list`, Tether next to @playwright/mcp.
 *
 * The browser runs WITHOUT Playwright (a plain headless launch, raw CDP on the browser target
 * only): Playwright attaches to service workers and so keeps them from ever idling out. The worker
 * is stopped with CDP `Target.closeTarget`, a forced stop (as DevTools or a crash), which also
 * ends its native host.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import WebSocket from 'ws';
import type { Envelope } from '../shared/agent/agentProtocol.ts';
import { CHROMIUM, DIST, chromiumArgs } from '../e2e/support/launchTether.ts';
import { median, p95 } from './stats.ts';

const REPO = resolve(import.meta.dirname, '..');
const SERVER = join(REPO, 'dist-bridge', 'tether-mcp.js');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface Sandbox {
  home: string;
  env: Record<string, string>;
}

function sandbox(): Sandbox {
  const home = mkdtempSync(join(tmpdir(), 'tether-bench-home-'));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== 'TETHER_TOKEN') env[key] = value;
  Object.assign(env, {
    TETHER_HOME: home,
    TETHER_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'tether-bench-config-')),
    TETHER_PORT: String(20_000 + (process.pid % 1000)),
  });
  return { home, env };
}

const hostSockets = (box: Sandbox) => {
  try {
    return readdirSync(join(box.home, 'run')).filter((name) => /^h-\d+\.sock$/.test(name));
  } catch {
    return [];
  }
};

/** Chromium with the built extension and the host installed for its profile, driven over raw CDP only. */
class RawBrowser {
  private next = 0;
  private readonly replies = new Map<number, (value: unknown) => void>();

  private constructor(
    private readonly child: ChildProcess,
    private readonly socket: WebSocket,
    readonly userDataDir: string,
  ) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
      if (message.id !== undefined) this.replies.get(message.id)?.(message.result);
    });
  }

  static async launch(box: Sandbox): Promise<RawBrowser> {
    const userDataDir = mkdtempSync(join(tmpdir(), 'tether-bench-profile-'));
    execFileSync(process.execPath, [SERVER, 'install', '--browser-profile-dir', userDataDir], { env: box.env, stdio: 'ignore' });
    const child = spawn(CHROMIUM, ['--headless', `--user-data-dir=${userDataDir}`, '--remote-debugging-port=0', ...chromiumArgs([DIST]), 'about:blank'], {
      stdio: ['ignore', 'ignore', 'ignore'],
      env: box.env,
    });
    const portFile = join(userDataDir, 'DevToolsActivePort');
    for (let waited = 0; !existsSync(portFile) || readFileSync(portFile, 'utf8').split('\n').length < 2; waited += 20) {
      if (waited > 30_000) throw new Error('Chromium did not start');
      await sleep(20);
    }
    const [port, path] = readFileSync(portFile, 'utf8').trim().split('\n');
    const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`);
    await new Promise((done, fail) => {
      socket.once('open', done);
      socket.once('error', fail);
    });
    return new RawBrowser(child, socket, userDataDir);
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    this.next += 1;
    const id = this.next;
    return new Promise((done) => {
      this.replies.set(id, done);
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  async worker(): Promise<string | null> {
    const { targetInfos } = (await this.send('Target.getTargets')) as { targetInfos: Array<{ targetId: string; type: string; url: string }> };
    return targetInfos.find((info) => info.type === 'service_worker' && info.url.endsWith('/service-worker-loader.js'))?.targetId ?? null;
  }

  async stopWorker(): Promise<void> {
    const target = await this.worker();
    if (target) await this.send('Target.closeTarget', { targetId: target });
  }

  async close(): Promise<void> {
    const exited = new Promise((done) => this.child.once('exit', done));
    await Promise.race([this.send('Browser.close'), sleep(3_000)]);
    await Promise.race([exited, sleep(5_000)]);
    this.child.kill('SIGKILL');
    this.socket.close();
    rmSync(this.userDataDir, { recursive: true, force: true });
  }
}

/** An agent: an MCP client that starts the compiled server, as an MCP client's config does. */
async function agent(box: Sandbox): Promise<{ client: Client; context(profile?: string): Promise<Envelope> }> {
  const client = new Client({ name: 'tether-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER, '--quiet'], env: box.env, stderr: 'ignore' }));
  return {
    client,
    async context(profile) {
      const result = await client.callTool({ name: 'context', arguments: profile ? { profile } : {} });
      return result.structuredContent as Envelope;
    },
  };
}

async function untilAnswered(ask: () => Promise<Envelope>, timeoutMs = 60_000): Promise<Envelope> {
  const started = performance.now();
  for (;;) {
    const envelope = await ask();
    if (envelope.ok && ((envelope.result as { profiles?: unknown[] }).profiles?.length ?? 0) > 0) return envelope;
    if (performance.now() - started > timeoutMs) throw new Error(`no answer in ${timeoutMs} ms: ${JSON.stringify(envelope)}`);
    await sleep(20);
  }
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export interface Timings {
  label: string;
  samples: number[];
  note: string;
}

export interface FirstAnswers {
  rows: Timings[];
  idle: { idleSeconds: number; workerStillRunning: boolean; sameHost: boolean; firstAnswerMs: number };
}

export async function measureFirstAnswers(runs = 20, log: (line: string) => void = () => undefined): Promise<FirstAnswers> {
  const rows: Timings[] = [];

  // 1. Worker stopped by force, bridge up: the call is made right after the stop.
  {
    const box = sandbox();
    const browser = await RawBrowser.launch(box);
    const tether = await agent(box);
    try {
      const first = await untilAnswered(() => tether.context());
      const profile = ((first as Extract<Envelope, { ok: true }>).result as { profiles: Array<{ id: string }> }).profiles[0]?.id;
      const samples: number[] = [];
      for (let run = 0; run < runs; run += 1) {
        await waitFor(async () => (await browser.worker()) !== null && hostSockets(box).length === 1, 'the worker and its host');
        await sleep(300);
        await browser.stopWorker();
        const started = performance.now();
        const answer = await tether.context(profile);
        if (!answer.ok) throw new Error(`worker stopped: ${JSON.stringify(answer)}`);
        samples.push(performance.now() - started);
      }
      rows.push({ label: 'worker stopped by force (CDP closeTarget), bridge up: the call right after the stop', samples, note: 'from the call to its answer' });
      log(`worker stopped: ${samples.map(Math.round).join(' ')}`);
    } finally {
      await tether.client.close();
      await browser.close();
    }
  }

  // 2. Browser first: a fresh browser each run, its host up; then the agent's server starts.
  {
    const box = sandbox();
    const samples: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const browser = await RawBrowser.launch(box);
      try {
        await waitFor(() => hostSockets(box).length === 1, 'the host');
        await sleep(1_000);
        const started = performance.now();
        const tether = await agent(box);
        await untilAnswered(() => tether.context());
        samples.push(performance.now() - started);
        await tether.client.close();
      } finally {
        await browser.close();
      }
      await waitFor(() => hostSockets(box).length === 0, 'the host to go');
    }
    rows.push({ label: 'browser started first, then the MCP server', samples, note: 'from spawning the server to the first answer (Node’s start included)' });
    log(`browser first: ${samples.map(Math.round).join(' ')}`);
  }

  // 3. Bridge first: the server is up (answering browser_not_connected at once); then the browser starts.
  {
    const box = sandbox();
    const fromLaunch: number[] = [];
    const fromHost: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const tether = await agent(box);
      const none = await tether.context();
      if (none.ok) throw new Error('an answer without a browser');
      const launched = performance.now();
      let hostAt = 0;
      const watching = (async () => {
        await waitFor(() => hostSockets(box).length === 1, 'the host', 60_000);
        hostAt = performance.now();
      })();
      const browser = await RawBrowser.launch(box);
      try {
        await untilAnswered(() => tether.context());
        const answered = performance.now();
        await watching;
        fromLaunch.push(answered - launched);
        fromHost.push(answered - hostAt);
      } finally {
        await tether.client.close();
        await browser.close();
      }
      await waitFor(() => hostSockets(box).length === 0, 'the host to go');
    }
    rows.push({
      label: 'MCP server started first, then the browser',
      samples: fromLaunch,
      note: 'from launching the browser to the first answer (the browser’s own start included)',
    });
    rows.push({
      label: '… the same runs, from the host’s socket appearing',
      samples: fromHost,
      note: 'the part that is Tether’s: socket found (fs.watch), paired, answered',
    });
    log(`bridge first (from launch): ${fromLaunch.map(Math.round).join(' ')}`);
  }

  // 4. Bridge restarted, one browser all along; then one long idle.
  let idle: FirstAnswers['idle'];
  {
    const box = sandbox();
    const browser = await RawBrowser.launch(box);
    try {
      await waitFor(() => hostSockets(box).length === 1, 'the host');
      const samples: number[] = [];
      for (let run = 0; run < runs; run += 1) {
        const started = performance.now();
        const tether = await agent(box);
        await untilAnswered(() => tether.context());
        samples.push(performance.now() - started);
        await tether.client.close();
      }
      rows.push({ label: 'MCP server restarted (browser untouched)', samples, note: 'from spawning the new server to the first answer' });
      log(`bridge restarted: ${samples.map(Math.round).join(' ')}`);
      // The ordinary morning: nothing at all for longer than Chrome's 30 s idle timeout.
      const [hostBefore] = hostSockets(box);
      const idleSeconds = 45;
      await sleep(idleSeconds * 1000);
      const workerStillRunning = (await browser.worker()) !== null;
      const started = performance.now();
      const tether = await agent(box);
      await untilAnswered(() => tether.context());
      const firstAnswerMs = performance.now() - started;
      await tether.client.close();
      idle = { idleSeconds, workerStillRunning, sameHost: hostSockets(box)[0] === hostBefore, firstAnswerMs };
    } finally {
      await browser.close();
    }
  }
  return { rows, idle };
}

/** Spawn → initialize → tools/list answered, over raw JSON-RPC on stdio. */
async function serverStart(command: string, args: string[], env: Record<string, string>, cwd: string): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'], env, cwd });
  let buffered = '';
  try {
    await new Promise<void>((done, fail) => {
      child.once('exit', (code) => fail(new Error(`${command} exited (${code})`)));
      child.stdout?.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        if (buffered.includes('"id":1') && !buffered.includes('"id":2') && !buffered.includes('sent-2')) {
          buffered += 'sent-2';
          child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
          child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
        }
        if (/"id":2[,}]/.test(buffered) && buffered.includes('"tools"')) done();
      });
      child.stdin?.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`,
      );
    });
    return performance.now() - started;
  } finally {
    child.kill('SIGKILL');
  }
}

/** A package as a person gets it: packed, installed from the tarball into an empty folder. */
function installedPackage(source = REPO): string {
  const packs = mkdtempSync(join(tmpdir(), 'tether-bench-pack-'));
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packs], { cwd: source, encoding: 'utf8' }),
  ) as Array<{ filename: string }>;
  const folder = mkdtempSync(join(tmpdir(), 'tether-bench-installed-'));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(packs, packed?.filename ?? '')], { cwd: folder, stdio: 'ignore' });
  rmSync(packs, { recursive: true, force: true });
  return folder;
}

/**
 * The floor: a package whose bin only answers each request with an empty tool list — no MCP
 * library, nothing loaded. What is left of a start is Node's own (and through npx, npm's).
 */
function noOpResponder(): { bin: string; installed: string } {
  const source = mkdtempSync(join(tmpdir(), 'tether-bench-noop-'));
  const bin = join(source, 'noop-mcp.mjs');
  copyFileSync(join(REPO, 'bench', 'noopMcp.mjs'), bin);
  chmodSync(bin, 0o755);
  writeFileSync(join(source, 'package.json'), JSON.stringify({ name: 'noop-mcp', version: '1.0.0', type: 'module', bin: { 'noop-mcp': 'noop-mcp.mjs' } }));
  const installed = installedPackage(source);
  return { bin, installed };
}

export async function measureServerStart(runs = 20): Promise<Timings[]> {
  const box = sandbox();
  const playwrightCli = join(REPO, 'node_modules', '@playwright', 'mcp', 'cli.js');
  const installed = installedPackage();
  const noOp = noOpResponder();
  const contenders: Array<[string, string, string[], string]> = [
    ['Tether: `node dist-bridge/tether-mcp.js`', process.execPath, [SERVER], REPO],
    ['Tether: `npx tether-mcp`, package installed in a folder of its own', 'npx', ['tether-mcp'], installed],
    ['floor: a no-op responder, `node noop-mcp.mjs`', process.execPath, [noOp.bin], REPO],
    ['floor: the same through `npx noop-mcp`, installed the same way', 'npx', ['noop-mcp'], noOp.installed],
    ['@playwright/mcp: `node cli.js`', process.execPath, [playwrightCli, '--headless', '--isolated'], REPO],
    ['@playwright/mcp: `npx @playwright/mcp` inside this repository', 'npx', ['@playwright/mcp', '--headless', '--isolated'], REPO],
  ];
  const samples = contenders.map(() => [] as number[]);
  // Interleaved, so the machine's load falls on all of them alike.
  for (let run = 0; run < runs; run += 1) {
    for (const [index, [, command, args, cwd]] of contenders.entries()) samples[index]?.push(await serverStart(command, args, box.env, cwd));
  }
  for (const folder of [installed, noOp.installed, dirname(noOp.bin)]) rmSync(folder, { recursive: true, force: true });
  return contenders.map(([label], index) => ({ label, samples: samples[index] ?? [], note: 'spawn → initialize → tools/list answered' }));
}

export function timingRow(row: Timings): string[] {
  return [row.label, `${Math.round(median(row.samples))} ms`, `${Math.round(p95(row.samples))} ms`, String(row.samples.length), row.note];
}
