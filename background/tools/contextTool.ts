/**
 * `context`: discovery in band. The profile, its shared workspaces with their tabs' metadata, the
 * view, the request-time tab and programs with their targets — three different "current" things,
 * kept apart. With no arguments it also says how to use the other tools.
 */
import { failure, success, type Outcome } from '../../shared/errors.ts';
import { siteLabel } from '../../shared/matchSite.ts';
import { originOf, type Workspace } from '../../shared/model.ts';
import type { ContextArgs } from '../../shared/protocol.ts';
import { USAGE } from '../../shared/usage.ts';
import { readRequestTimeTab, readTabsMeta, readView } from '../browserTabs.ts';
import { programsOf } from '../programs.ts';
import type { RequestTrace } from '../requestTrace.ts';
import { checkProfile, checkScope, sharedWorkspaces } from '../scope.ts';
import { localStore, sessionStore } from '../store.ts';

async function describeWorkspace(workspace: Workspace, viewTabId: number | null) {
  const state = localStore.getState();
  const seen = sessionStore.getState().seen;
  const tabs = await readTabsMeta(workspace.tabIds);
  const requestTimeTab = await readRequestTimeTab(workspace.tabIds);
  return {
    id: workspace.id,
    name: workspace.name,
    requestTimeTab,
    view: viewTabId !== null && workspace.tabIds.includes(viewTabId) ? viewTabId : null,
    tabs: tabs.map((tab) => {
      const origin = originOf(tab.url);
      const account = seen[String(tab.tabId)];
      return {
        tabId: tab.tabId,
        title: tab.title,
        url: tab.url,
        site: siteLabel(tab.url),
        writable: origin !== null && workspace.sites[origin]?.writable === true,
        ...(account && account.documentId === tab.documentId && account.account ? { account: account.account } : {}),
      };
    }),
    programs: programsOf(state, workspace.id).map((program) => ({
      id: program.id,
      label: program.label,
      status: program.status,
      tabId: program.target.tabId,
      title: program.target.title,
      ...(program.dueAt !== undefined ? { dueAt: new Date(program.dueAt).toISOString() } : {}),
    })),
  };
}

export async function contextTool(args: ContextArgs, trace: RequestTrace): Promise<Outcome<unknown>> {
  const state = localStore.getState();
  trace.point('decide');
  let workspaces: Workspace[];
  if (args.profile !== undefined && args.workspace !== undefined) {
    const scope = checkScope(state, args.profile, args.workspace);
    if (!scope.ok) return scope;
    workspaces = [scope.value.workspace];
  } else if (args.profile !== undefined) {
    const profile = checkProfile(state, args.profile);
    if (!profile.ok) return profile;
    workspaces = sharedWorkspaces(state);
  } else if (args.workspace !== undefined) {
    return failure({ code: 'missing_context', message: 'Name the profile together with the workspace.', details: { missing: ['profile'] } });
  } else {
    workspaces = sharedWorkspaces(state);
  }
  trace.point('dispatch');
  const view = await readView();
  const described = await Promise.all(workspaces.map((workspace) => describeWorkspace(workspace, view?.tabId ?? null)));
  trace.point('observe');
  const profile = state.profile;
  const result: Record<string, unknown> = {
    profiles: profile ? [{ id: profile.id, label: profile.label, workspaces: described }] : [],
  };
  if (args.profile === undefined && args.workspace === undefined) result.usage = USAGE;
  trace.observation = { workspaces: described.length };
  return success(result);
}
