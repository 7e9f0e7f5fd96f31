/**
 * One notice for a burst of changes: the first change after a quiet spell schedules `send`
 * `delayMs` later, and every change until then rides on that one. No change goes unannounced: one
 * that comes after the send schedules the next.
 */
export function coalescedNotice(
  send: () => void,
  delayMs: number,
  schedule: (run: () => void, ms: number) => unknown = (run, ms) => setTimeout(run, ms),
): () => void {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    schedule(() => {
      pending = false;
      send();
    }, delayMs);
  };
}
