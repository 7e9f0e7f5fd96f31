/** Probes of the bridge's loopback WebSocket, as a web page or another local program would try it. */
import type { Page } from '@playwright/test';

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
