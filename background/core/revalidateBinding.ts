/**
 * Execution-time revalidation (R8), a pure function of (the handle's binding, a fresh snapshot of
 * the host). Every inspect and act passes through it just before it reaches the page. Any
 * difference is refused with `context_changed` naming what changed; it never picks another tab.
 */
import { isCommitKey } from '../../shared/page/documentKey.ts';
import { failure, success, tetherError, type Outcome } from '../../shared/errors.ts';
import { originOf, urlWithoutFragment, type TabMeta, type TargetBinding, type Workspace } from '../../shared/model/targetModel.ts';

export type ChangedAspect = 'profile' | 'workspace' | 'membership' | 'tab' | 'document' | 'origin' | 'url';

export interface HostSnapshot {
  profileId: string;
  /** The binding's workspace as it is now; null when the person deleted it. */
  workspace: Workspace | null;
  /** The bound tab as the browser reports it now; null when it is closed. */
  tab: TabMeta | null;
}

const WHAT_CHANGED: Record<ChangedAspect, string> = {
  profile: 'the browser profile is not the one the handle was made in',
  workspace: 'the workspace was deleted or is no longer shared with agents',
  membership: 'the tab was removed from the workspace',
  tab: 'the tab was closed',
  document: 'the page was navigated, reloaded or discarded',
  origin: 'the tab now shows another site',
  url: 'the page address changed',
};

/**
 * A key the worker minted (no browser documentId) cannot address a document: messages go to the
 * tab's top frame, and only the page instance the binding saw lets the page there tell it is the
 * bound one. A binding with neither never reaches a page.
 */
function pinsItsDocument(binding: TargetBinding): boolean {
  return !isCommitKey(binding.documentId) || binding.pageInstance !== null;
}

export function revalidateBinding(binding: TargetBinding, now: HostSnapshot): Outcome<TabMeta> {
  const changed: ChangedAspect[] = [];
  if (now.profileId !== binding.profileId) changed.push('profile');
  if (!now.workspace || now.workspace.id !== binding.workspaceId || !now.workspace.shared) changed.push('workspace');
  const tab = now.tab;
  if (!tab || tab.tabId !== binding.tabId) {
    changed.push('tab');
  } else {
    if (now.workspace && !now.workspace.tabIds.includes(tab.tabId)) changed.push('membership');
    if (tab.discarded || tab.documentId === null || tab.documentId !== binding.documentId || !pinsItsDocument(binding)) changed.push('document');
    if (originOf(tab.url) !== binding.origin) changed.push('origin');
    else if (urlWithoutFragment(tab.url) !== urlWithoutFragment(binding.url)) changed.push('url');
  }

  if (changed.length === 0 && tab) return success(tab);
  return failure(
    tetherError('context_changed', `Refused: ${changed.map((aspect) => WHAT_CHANGED[aspect]).join('; ')}. Resolve the target again.`, {
      changed,
      expected: { tabId: binding.tabId, url: binding.url, documentId: binding.documentId, workspaceId: binding.workspaceId },
      now: tab ? { tabId: tab.tabId, url: tab.url, documentId: tab.documentId } : null,
    }),
  );
}
