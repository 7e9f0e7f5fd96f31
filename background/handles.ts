/**
 * Target handles: opaque tokens only `resolve` can mint. A handle is 144 random bits; what it
 * means lives in `storage.session`, so an agent cannot forge, alter or guess one, and a handle
 * survives the worker being stopped but not a browser restart (when tab ids mean nothing).
 */
import { failure, success, tetherError, type Outcome } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { TargetBinding } from '../shared/model.ts';
import { sessionStore, type HandleRecord, type SessionState } from './store.ts';

export const HANDLE_TTL_MS = 2 * 60 * 60 * 1000;
const HANDLE_PATTERN = /^th_[A-Za-z0-9_-]{24}$/;

/** Pure: is this token a live handle of this profile and workspace? */
export function checkHandle(
  handles: SessionState['handles'],
  token: string,
  scope: { profileId: string; workspaceId: string },
  now: number,
): Outcome<HandleRecord> {
  const record = HANDLE_PATTERN.test(token) ? handles[token] : undefined;
  if (!record) {
    return failure(tetherError('invalid_handle', 'Unknown handle. Handles come only from resolve; call resolve to get one.', { reason: 'unknown' }));
  }
  if (record.expiresAt <= now) {
    return failure(tetherError('invalid_handle', 'This handle has expired. Call resolve again.', { reason: 'expired' }));
  }
  if (record.binding.profileId !== scope.profileId || record.binding.workspaceId !== scope.workspaceId) {
    return failure(
      tetherError('invalid_handle', 'This handle was made for another profile or workspace than the request names.', { reason: 'scope' }),
    );
  }
  return success(record);
}

export function liveHandles(handles: SessionState['handles'], now: number): SessionState['handles'] {
  return Object.fromEntries(Object.entries(handles).filter(([, record]) => record.expiresAt > now));
}

export async function mintHandle(binding: TargetBinding, requestId: string, now: number): Promise<string> {
  const token = newId('th', 18);
  await sessionStore.setState((state) => ({
    handles: {
      ...liveHandles(state.handles, now),
      [token]: { binding, mintedAt: now, expiresAt: now + HANDLE_TTL_MS, inspected: null, requestId },
    },
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
