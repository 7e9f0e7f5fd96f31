/** What Tether uses of a `runtime.Port` (native or to a page), so tests can hand in a fake one. */
export interface BrowserPort {
  postMessage(message: unknown): void;
  disconnect(): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
  /** Firefox's reason for the close (Chromium sets `runtime.lastError` instead). */
  error?: { message?: string } | null;
}
