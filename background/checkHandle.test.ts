import { describe, expect, it } from 'vitest';
import { newId } from '../shared/ids.ts';
import { binding, tab } from '../shared/testing/fixtures.ts';
import { checkHandle, liveHandles } from './checkHandle.ts';
import type { HandleRecord } from './store.ts';

const token = newId('th', 18);
const record: HandleRecord = { binding: binding(tab(1, 'https://blog.example/write')), mintedAt: 0, expiresAt: 1000, inspected: null, requestId: 'rq' };
const handles = { [token]: record };
const scope = { profileId: 'pr_test', workspaceId: 'ws_test' };

describe('checkHandle', () => {
  it.each([
    { name: 'a live handle of this scope → ok', token, scope, now: 10, reason: null },
    { name: 'a forged token → invalid_handle', token: newId('th', 18), scope, now: 10, reason: 'unknown' },
    { name: 'an altered token → invalid_handle', token: `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, scope, now: 10, reason: 'unknown' },
    { name: 'a malformed token → invalid_handle', token: '../../etc', scope, now: 10, reason: 'unknown' },
    { name: 'an expired handle → invalid_handle', token, scope, now: 1000, reason: 'expired' },
    { name: 'another profile’s handle → invalid_handle', token, scope: { ...scope, profileId: 'pr_other' }, now: 10, reason: 'scope' },
    { name: 'another workspace → invalid_handle', token, scope: { ...scope, workspaceId: 'ws_other' }, now: 10, reason: 'scope' },
  ])('$name', ({ token: candidate, scope: asked, now, reason }) => {
    const outcome = checkHandle(handles, candidate, asked, now);
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

  it('expired handles are dropped', () => {
    expect(Object.keys(liveHandles(handles, 999))).toEqual([token]);
    expect(Object.keys(liveHandles(handles, 1000))).toEqual([]);
  });
});
