/** The adapter half of R8: a fresh snapshot of the host, handed to the pure `revalidateBinding`. */
import type { Outcome } from '../shared/errors.ts';
import type { TabMeta, TargetBinding } from '../shared/model.ts';
import { readTabMeta } from './browserTabs.ts';
import { revalidateBinding } from './revalidateBinding.ts';
import { localStore } from './store.ts';

export async function revalidateNow(binding: TargetBinding): Promise<Outcome<TabMeta>> {
  const state = localStore.getState();
  return revalidateBinding(binding, {
    profileId: state.profile?.id ?? '',
    workspace: state.workspaces[binding.workspaceId] ?? null,
    tab: await readTabMeta(binding.tabId),
  });
}
