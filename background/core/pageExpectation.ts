/** What a page must still be for a message to it to count: the binding's page, address, account and role. */
import type { TargetBinding } from '../../shared/model/targetModel.ts';

export function expectationOf(binding: TargetBinding) {
  return { pageInstance: binding.pageInstance, url: binding.url, account: binding.account, role: binding.role };
}
