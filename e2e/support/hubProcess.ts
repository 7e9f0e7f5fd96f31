/**
 * The bridge's hub as its own process, as `npx tether-mcp --hub` runs it (the compiled bin):
 * what the network attacks of the reliability suite aim at. Its stderr is kept, its memory read
 * from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { freePort } from '../../testing/ports.ts';

/** A port nothing listens on right now (the testing kit's). */
export { freePort } from '../../testing/ports.ts';

export const BIN = resolve(import.meta.dirname, '..', '..', 'dist-bridge', 'tether-mcp.js');

export interface HubOptions {
  port?: number;
  /** TETHER_TOKEN; leave it out to use the token file in `configDir`. */
  token?: string;
  configDir?: string;
}

export class HubProcess {
  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
    readonly token: string | undefined,
    private readonly errors: string[],
  ) {}

  static async start(options: HubOptions = {}): Promise<HubProcess> {
    const port = options.port ?? (await freePort());
    const env: NodeJS.ProcessEnv = { ...process.env, TETHER_PORT: String(port) };
    delete env.TETHER_TOKEN;
    if (options.token) env.TETHER_TOKEN = options.token;
    if (options.configDir) env.TETHER_CONFIG_DIR = options.configDir;
    const child = spawn(process.execPath, [BIN, '--hub'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const errors: string[] = [];
    child.stderr?.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
    child.stdout?.resume();
    await new Promise<void>((done, fail) => {
      const check = () => {
        if (errors.join('').includes(`hub on 127.0.0.1:${port}`)) done();
      };
      child.stderr?.on('data', check);
      child.once('exit', (code) => fail(new Error(`the hub exited (${code}): ${errors.join('')}`)));
    });
    return new HubProcess(child, port, options.token, errors);
  }

  get stderr(): string {
    return this.errors.join('');
  }

  alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resident memory now, and its peak since the process started (VmHWM), in MB. */
  memoryMb(): { rss: number; peak: number } {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  }

  async stop(): Promise<void> {
    if (!this.alive()) return;
    const exited = new Promise((done) => this.child.once('exit', done));
    this.child.kill('SIGTERM');
    await exited;
  }
}
