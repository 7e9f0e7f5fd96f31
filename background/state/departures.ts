/**
 * Telling the person that a tab left a workspace because it went to another site (see
 * core/workspaces.ts: one the workspace has counts too). The notices
 * live in the session (tab ids mean nothing after a restart) until the person adds the tab back
 * or dismisses the notice, or the tab closes.
 */
import { sessionStore, type DepartureNotice } from './store.ts';
import type { Departure } from '../core/workspaces.ts';

function keyOf(workspaceId: string, tabId: number): string {
  return `${workspaceId}:${tabId}`;
}

export async function noteDepartures(departures: Departure[], now: number): Promise<void> {
  if (departures.length === 0) return;
  await sessionStore.setState((state) => {
    const next = { ...state.departures };
    for (const departure of departures) next[keyOf(departure.workspaceId, departure.tabId)] = { ...departure, at: now };
    return { departures: next };
  });
}

/** Forgets the notices that match (the tab was added back, dismissed, or closed). */
export async function forgetDepartures(match: (notice: DepartureNotice) => boolean): Promise<void> {
  const departures = sessionStore.getState().departures;
  if (!Object.values(departures).some(match)) return;
  await sessionStore.setState({ departures: Object.fromEntries(Object.entries(departures).filter(([, notice]) => !match(notice))) });
}
