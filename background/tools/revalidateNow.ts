/** The adapter half of R8: a fresh snapshot of the host, handed to the pure `revalidateBinding`. */
import type { Outcome } from '../../shared/errors.ts';
import type { TabMeta, TargetBinding } from '../../shared/model/targetModel.ts';
import { revalidateBinding } from '../core/revalidateBinding.ts';
import type { ToolContext } from '../toolContext.ts';

export async function revalidateNow(context: Pick<ToolContext, 'local' | 'tabs'>, binding: TargetBinding): Promise<Outcome<TabMeta>> {
  const state = context.local.getState();
  return revalidateBinding(binding, {
    profileId: state.profile?.id ?? '',
    workspace: state.workspaces[binding.workspaceId] ?? null,
    tab: await context.tabs.readTabMeta(binding.tabId),
  });
}
