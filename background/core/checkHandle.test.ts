import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/ids.ts';
import { binding, tab } from '../../shared/testing/fixtures.ts';
import { checkHandle } from './checkHandle.ts';
import type { HandleRecord } from '../state/handles.ts';

const token = newId('th', 18);
const record: HandleRecord = { binding: binding(tab(1, 'https://blog.example/write')), mintedAt: 0, expiresAt: 1000, inspected: null, requestId: 'rq' };
const scope = { profileId: 'pr_test', workspaceId: 'ws_test' };

describe('checkHandle', () => {
  it.each([
    { name: 'a live handle of this scope → ok', token, found: record, scope, now: 10, reason: null },
    { name: 'a forged token (nothing stored under it) → invalid_handle', token: newId('th', 18), found: null, scope, now: 10, reason: 'unknown' },
    { name: 'a malformed token → invalid_handle, even if something answered', token: '../../etc', found: record, scope, now: 10, reason: 'unknown' },
    { name: 'an expired handle → invalid_handle', token, found: record, scope, now: 1000, reason: 'expired' },
    { name: 'another profile’s handle → invalid_handle', token, found: record, scope: { ...scope, profileId: 'pr_other' }, now: 10, reason: 'scope' },
    { name: 'another workspace → invalid_handle', token, found: record, scope: { ...scope, workspaceId: 'ws_other' }, now: 10, reason: 'scope' },
  ])('$name', ({ token: candidate, found, scope: asked, now, reason }) => {
    const outcome = checkHandle(found, candidate, asked, now);
    if (reason === null) {
      expect(outcome.ok).toBe(true);
      return;
    }
    expect(!outcome.ok && outcome.error.code).toBe('invalid_handle');
    expect(!outcome.ok && outcome.error.details?.reason).toBe(reason);
  });

  it('a handle token carries 144 random bits and nothing about its target', () => {
    expect(token).toMatch(/^th_[A-Za-z0-9_-]{24}$/);
    expect(token).not.toContain('blog');
  });
});
