/**
 * One act at a time per tab (R7: a task already running there makes the tab busy). A reservation
 * is taken synchronously before the first await of an act and released when it ends, so two acts
 * racing in this worker cannot both pass validation and interleave on one page. It lives only as
 * long as the acts it guards: after a restart, the persisted act records say what was running.
 */
const reservations = new Map<number, string>();

export function reserveTab(tabId: number, requestId: string): boolean {
  const holder = reservations.get(tabId);
  if (holder !== undefined && holder !== requestId) return false;
  reservations.set(tabId, requestId);
  return true;
}

export function releaseTab(tabId: number, requestId: string): void {
  if (reservations.get(tabId) === requestId) reservations.delete(tabId);
}

export function reservedTabIds(): number[] {
  return [...reservations.keys()];
}
