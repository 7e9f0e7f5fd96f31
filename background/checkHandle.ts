/**
 * Pure checks of a target handle: is this token a live handle of this profile and workspace?
 * A handle is 144 random bits; its meaning lives only in the worker's session storage.
 */
import { failure, success, tetherError, type Outcome } from '../shared/errors.ts';
import type { HandleRecord, SessionState } from './store.ts';

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

