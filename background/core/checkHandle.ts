/**
 * Pure check of a target handle: may this token's record be used by a request in this scope now?
 * Unknown, forged, altered, expired, or another profile's or workspace's → `invalid_handle`.
 */
import { failure, success, tetherError, type Outcome } from '../../shared/errors.ts';
import type { HandleRecord } from '../state/handles.ts';

const HANDLE_PATTERN = /^th_[A-Za-z0-9_-]{24}$/;

export function isHandleToken(token: string): boolean {
  return HANDLE_PATTERN.test(token);
}

export function checkHandle(record: HandleRecord | null, token: string, scope: { profileId: string; workspaceId: string }, now: number): Outcome<HandleRecord> {
  if (!record || !isHandleToken(token)) {
    return failure(tetherError('invalid_handle', 'Unknown handle. Handles come only from resolve; call resolve to get one.', { reason: 'unknown' }));
  }
  if (record.expiresAt <= now) {
    return failure(tetherError('invalid_handle', 'This handle has expired. Call resolve again.', { reason: 'expired' }));
  }
  if (record.binding.profileId !== scope.profileId || record.binding.workspaceId !== scope.workspaceId) {
    return failure(tetherError('invalid_handle', 'This handle was made for another profile or workspace than the request names.', { reason: 'scope' }));
  }
  return success(record);
}
