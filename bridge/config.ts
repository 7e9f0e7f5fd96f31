/**
 * The bridge's settings: the loopback port and the pairing token. The token is generated on first
 * run and kept in the user's config directory (mode 0600); TETHER_TOKEN overrides it.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_BRIDGE_PORT } from '../shared/bridgeProtocol.ts';

export interface BridgeConfig {
  port: number;
  token: string;
  tokenFile: string | null;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TETHER_CONFIG_DIR ?? join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'tether');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): BridgeConfig {
  const port = Number(env.TETHER_PORT ?? DEFAULT_BRIDGE_PORT);
  if (!Number.isInteger(port) || port < 1024 || port > 65535) throw new Error(`TETHER_PORT must be a port number from 1024 to 65535, not "${env.TETHER_PORT}".`);
  if (env.TETHER_TOKEN) {
    if (env.TETHER_TOKEN.length < 16) throw new Error('TETHER_TOKEN must be at least 16 characters.');
    return { port, token: env.TETHER_TOKEN, tokenFile: null };
  }
  const dir = configDir(env);
  const tokenFile = join(dir, 'token');
  if (existsSync(tokenFile)) {
    const token = readFileSync(tokenFile, 'utf8').trim();
    if (token.length >= 16) return { port, token, tokenFile };
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const token = randomBytes(24).toString('base64url');
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  chmodSync(tokenFile, 0o600);
  return { port, token, tokenFile };
}
