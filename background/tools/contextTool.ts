/**
 * `context`: discovery in band. The profile, its shared workspaces with their tabs' metadata, the
 * view, the request-time tab and programs with their targets — three different "current" things,
 * kept apart. With no arguments it also says how to use the other tools.
 */
import { failure, success, type Outcome } from '../../shared/errors.ts';
import { originOf, type Workspace } from '../../shared/model/targetModel.ts';
import { contextArgsSchema, type ContextArgs } from '../../shared/agent/agentProtocol.ts';
import type { ContextProgram, ContextResult, ContextTab, ContextWorkspace } from '../../shared/agent/results.ts';
import { USAGE } from '../../shared/agent/usage.ts';
import { programsOf } from '../core/programs.ts';
import { holdInput } from '../core/holdStore.ts';
import type { RequestTrace } from '../core/requestTrace.ts';
import { heldByDetails, liveHold, otherHolder } from '../core/tabHolds.ts';
import { checkProfile, checkScope, sharedWorkspaces } from '../core/scope.ts';
import type { ToolContext } from '../toolContext.ts';
import { defineTool } from './defineTool.ts';

async function describeWorkspace(context: ToolContext, workspace: Workspace, viewTabId: number | null, session: string): Promise<ContextWorkspace> {
  const state = context.local.getState();
  const seen = context.session.getState().seen;
  const holds = holdInput(context);
  const [tabs, requestTimeTab] = await Promise.all([context.tabs.readTabsMeta(workspace.tabIds), context.tabs.readRequestTimeTab(workspace.tabIds)]);
  const described: ContextWorkspace = {
    id: workspace.id,
    name: workspace.name,
    tabs: tabs.map((tab) => {
      const origin = originOf(tab.url);
      const account = seen[String(tab.tabId)];
      const item: ContextTab = { tabId: tab.tabId, title: tab.title, url: tab.url, writable: origin !== null && workspace.sites[origin]?.writable === true };
      if (account && account.documentId === tab.documentId && account.account) item.account = account.account;
      // Who holds it: another agent's task (write elsewhere, or ask the person), or the asking agent's own.
      const other = otherHolder(holds, tab.tabId, session);
      const mine = other ? null : liveHold(holds, tab.tabId);
      if (other) item.heldBy = heldByDetails(other);
      else if (mine)
        item.heldBy = {
          ...heldByDetails({ agent: mine.agent, session, since: mine.since, ...(mine.task !== undefined ? { task: mine.task } : {}) }),
          yours: true,
        };
      return item;
    }),
  };
  if (requestTimeTab !== null) described.requestTimeTab = requestTimeTab;
  if (viewTabId !== null && workspace.tabIds.includes(viewTabId)) described.view = viewTabId;
  const programs = programsOf(state, workspace.id).map((program) => {
    const item: ContextProgram = { id: program.id, label: program.label, status: program.status, tabId: program.target.tabId };
    if (program.dueAt !== undefined) item.dueAt = new Date(program.dueAt).toISOString();
    return item;
  });
  if (programs.length > 0) described.programs = programs;
  return described;
}

export const contextTool = defineTool({
  name: 'context',
  args: contextArgsSchema,
  description: 'Start here: profiles, shared workspaces, their tabs and programs; no arguments: also how to use the tools.',
  needs: { context: [] },
  handler: describeContext,
});

async function describeContext(args: ContextArgs, trace: RequestTrace, context: ToolContext): Promise<Outcome<ContextResult>> {
  const state = context.local.getState();
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
  const view = await context.tabs.readView();
  const session = trace.caller().session;
  const described = await Promise.all(workspaces.map((workspace) => describeWorkspace(context, workspace, view?.tabId ?? null, session)));
  trace.point('observe');
  const profile = state.profile;
  const result: ContextResult = {
    profiles: profile ? [{ id: profile.id, label: profile.label, workspaces: described }] : [],
  };
  if (args.profile === undefined && args.workspace === undefined) result.usage = USAGE;
  trace.observation = { workspaces: described.length };
  return success(result);
}
