/**
 * One act at a time per tab (R7: a task already running there makes the tab busy), and one copy of
 * a request in flight. The check and the reservation happen in one synchronous step, before the
 * act's first look at the page, so two acts racing in this worker cannot both pass validation and
 * interleave on one page. It lives only as long as the acts it guards; a plan a stopped worker
 * left running is guarded by the page itself (one plan at a time).
 */
const reservations = new Map<number, string>();

export function reserveTab(tabId: number, requestId: string): boolean {
  if (reservations.has(tabId) || [...reservations.values()].includes(requestId)) return false;
  reservations.set(tabId, requestId);
  return true;
}

export function releaseTab(tabId: number, requestId: string): void {
  if (reservations.get(tabId) === requestId) reservations.delete(tabId);
}

export function reservedTabIds(): number[] {
  return [...reservations.keys()];
}
