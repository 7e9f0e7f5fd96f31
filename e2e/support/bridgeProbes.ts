/** Probes of the bridge's loopback WebSocket, as a web page or another local program would try it. */
import type { Page } from '@playwright/test';
import WebSocket from 'ws';

/** A web page (with its own Origin) opening the bridge's socket: 'open' or 'refused'. */
export function openFromPage(page: Page, port: number): Promise<string> {
  return page.evaluate(
    (bridgePort) =>
      new Promise<string>((done) => {
        const socket = new WebSocket(`ws://127.0.0.1:${bridgePort}/tether`);
        socket.onopen = () => done('open');
        socket.onerror = () => done('refused');
      }),
    port,
  );
}

/**
 * Opens the bridge's socket as a local program and answers its challenge with `hello(serverNonce)`
 * (or nothing, when it is undefined). Resolves with the close code, or "http N" when the upgrade
 * itself was refused.
 */
export function handshakeResult(
  port: number,
  options: WebSocket.ClientOptions,
  hello?: (serverNonce: string) => Promise<unknown> | unknown,
): Promise<number | string> {
  return new Promise((done) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/tether`, options);
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type?: string; nonce?: string };
      if (frame.type !== 'challenge' || hello === undefined) return;
      void Promise.resolve(hello(frame.nonce ?? '')).then((message) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)));
    });
    socket.on('unexpected-response', (_request, response) => done(`http ${response.statusCode}`));
    socket.on('close', (code) => done(code));
    socket.on('error', () => undefined);
  });
}
