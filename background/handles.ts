/**
 * Target handles: opaque tokens only `resolve` can mint. A handle is 144 random bits; what it
 * means lives in `storage.session`, so an agent cannot forge, alter or guess one, and a handle
 * survives the worker being stopped but not a browser restart (when tab ids mean nothing).
 */
import { newId } from '../shared/ids.ts';
import type { TargetBinding } from '../shared/model.ts';
import { liveHandles } from './checkHandle.ts';
import { sessionStore, type SessionState } from './store.ts';

export const HANDLE_TTL_MS = 2 * 60 * 60 * 1000;
/** Live handles kept per profile; past this the oldest go first, so memory stays flat under load. */
export const MAX_LIVE_HANDLES = 128;

export async function mintHandle(binding: TargetBinding, requestId: string, now: number): Promise<string> {
  const token = newId('th', 18);
  await sessionStore.setState((state) => ({
    handles: Object.fromEntries(
      [
        ...Object.entries(liveHandles(state.handles, now)).slice(-(MAX_LIVE_HANDLES - 1)),
        [token, { binding, mintedAt: now, expiresAt: now + HANDLE_TTL_MS, inspected: null, requestId }] as const,
      ],
    ),
  }));
  return token;
}

/** Remembers what the last inspect saw in each field: the default expectation of a plan's writes. */
export async function rememberInspection(token: string, fields: Record<string, string>): Promise<void> {
  await sessionStore.setState((state) => {
    const record = state.handles[token];
    if (!record) return {};
    return { handles: { ...state.handles, [token]: { ...record, inspected: fields } } };
  });
}

/** The person unbinds: every handle of a tab (or of a workspace) stops working at once. */
export async function revokeHandles(match: (binding: TargetBinding) => boolean): Promise<number> {
  let revoked = 0;
  await sessionStore.setState((state) => {
    const kept: SessionState['handles'] = {};
    for (const [token, record] of Object.entries(state.handles)) {
      if (match(record.binding)) revoked += 1;
      else kept[token] = record;
    }
    return { handles: kept };
  });
  return revoked;
}
