/**
 * Who may open the bridge's WebSocket, decided before the upgrade completes:
 * - the Host header must name the loopback address and our port (a DNS-rebinding page sends its
 *   own host name, so it is refused even though the connection reached 127.0.0.1);
 * - an Origin, when present, must be a browser extension's: web pages always send theirs;
 * - no Origin at all is a local program (another bridge process relaying its agent).
 * The pairing token is checked after this, in the first message.
 */

export type PeerOrigin = 'extension' | 'local-program' | 'web';

export function isLoopbackHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(host.toLowerCase());
}

export function classifyOrigin(origin: string | undefined): PeerOrigin {
  if (origin === undefined || origin === '') return 'local-program';
  return /^(chrome|moz)-extension:\/\/[a-z0-9-]+$/i.test(origin) ? 'extension' : 'web';
}
