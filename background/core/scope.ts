/**
 * The trusted scope of a request: the profile and workspace come from the extension's own state;
 * the request only names them. An unknown profile, or a workspace that does not exist or is not
 * shared with agents, is `unknown_scope`, and agents can never create or widen one.
 */
import { failure, success, tetherError, type Outcome } from '../../shared/errors.ts';
import type { Profile, Workspace } from '../../shared/model/targetModel.ts';
import type { LocalState } from '../state/store.ts';

export interface Scope {
  profile: Profile;
  workspace: Workspace;
}

export function sharedWorkspaces(state: LocalState): Workspace[] {
  return Object.values(state.workspaces)
    .filter((workspace) => workspace.shared)
    .sort((a, b) => a.createdAt - b.createdAt);
}

export function checkProfile(state: LocalState, profileId: string): Outcome<Profile> {
  const profile = state.profile;
  if (!profile || profile.id !== profileId) {
    return failure(
      tetherError('unknown_scope', `No connected browser profile has id "${profileId}". Call context to list profiles.`, {
        profile: profileId,
      }),
    );
  }
  return success(profile);
}

export function checkScope(state: LocalState, profileId: string, workspaceId: string): Outcome<Scope> {
  const profile = checkProfile(state, profileId);
  if (!profile.ok) return profile;
  const workspace = state.workspaces[workspaceId];
  if (!workspace || !workspace.shared) {
    return failure(
      tetherError(
        'unknown_scope',
        `Workspace "${workspaceId}" does not exist in this profile or is not shared with agents. Call context to list the shared ones.`,
        { workspace: workspaceId, shared: sharedWorkspaces(state).map((shared) => ({ id: shared.id, name: shared.name })) },
      ),
    );
  }
  return success({ profile: profile.value, workspace });
}
