/**
 * One act at a time per tab (R7: a task already running there makes the tab busy), and one copy of
 * a request in flight. The check and the reservation happen in one synchronous step, before the
 * act's first look at the page, so two acts racing in this worker cannot both pass validation and
 * interleave on one page. It lives only as long as the acts it guards; a plan a stopped worker
 * left running is guarded by the page itself (one plan at a time).
 */
export interface TabReservations {
  reserve(tabId: number, requestId: string): boolean;
  release(tabId: number, requestId: string): void;
  reserved(): number[];
}

export function createTabReservations(): TabReservations {
  const reservations = new Map<number, string>();
  return {
    reserve(tabId, requestId) {
      if (reservations.has(tabId) || [...reservations.values()].includes(requestId)) return false;
      reservations.set(tabId, requestId);
      return true;
    },
    release(tabId, requestId) {
      if (reservations.get(tabId) === requestId) reservations.delete(tabId);
    },
    reserved: () => [...reservations.keys()],
  };
}

/** The worker's one table: immediate and scheduled acts share it. */
export const tabReservations = createTabReservations();
