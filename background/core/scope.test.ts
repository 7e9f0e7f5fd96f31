import { describe, expect, it } from 'vitest';
import { PROFILE, tab, workspace } from '../../shared/testing/fixtures.ts';
import type { LocalState } from '../state/store.ts';
import { checkProfile, checkScope, sharedWorkspaces } from './scope.ts';

const blog = tab(1, 'https://blog.example/write');
const state = (): LocalState =>
  ({
    profile: { id: PROFILE, label: 'Chromium profile', createdAt: 0 },
    workspaces: {
      ws_late: { ...workspace([blog]), id: 'ws_late', name: 'Late', createdAt: 30 },
      ws_private: { ...workspace([blog]), id: 'ws_private', name: 'Private', shared: false, createdAt: 5 },
      ws_early: { ...workspace([blog]), id: 'ws_early', name: 'Early', createdAt: 10 },
    },
    programs: {},
    scheduled: {},
    connection: {},
  }) as unknown as LocalState;

describe('the trusted scope of a request', () => {
  it('shared workspaces only, oldest first', () => {
    expect(sharedWorkspaces(state()).map((item) => item.id)).toEqual(['ws_early', 'ws_late']);
  });

  it('this profile and a shared workspace → the scope', () => {
    const outcome = checkScope(state(), PROFILE, 'ws_late');
    expect(outcome.ok && [outcome.value.profile.id, outcome.value.workspace.id]).toEqual([PROFILE, 'ws_late']);
  });

  it.each([
    { name: 'another profile', profile: 'pr_other', workspace: 'ws_late' },
    { name: 'no profile yet', profile: PROFILE, workspace: 'ws_late', noProfile: true },
  ])('$name → unknown_scope naming the profile', ({ profile, workspace: id, noProfile }) => {
    const outcome = checkScope({ ...state(), ...(noProfile ? { profile: null } : {}) }, profile, id);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toStrictEqual({
      code: 'unknown_scope',
      message: `No connected browser profile has id "${profile}". Call context to list profiles.`,
      details: { profile },
    });
    expect(checkProfile(state(), 'pr_other').ok).toBe(false);
  });

  it.each(['ws_private', 'ws_nothere'])('workspace %s (unshared, or none) → unknown_scope listing the shared ones', (id) => {
    const outcome = checkScope(state(), PROFILE, id);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toStrictEqual({
      code: 'unknown_scope',
      message: `Workspace "${id}" does not exist in this profile or is not shared with agents. Call context to list the shared ones.`,
      details: {
        workspace: id,
        shared: [
          { id: 'ws_early', name: 'Early' },
          { id: 'ws_late', name: 'Late' },
        ],
      },
    });
  });
});
