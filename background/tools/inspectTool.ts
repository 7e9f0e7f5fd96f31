/**
 * `inspect`: full context + a handle → the page's state now, with the binding revalidated (R8).
 * Reference handles may be inspected (that is how an agent reads them); write handles are also
 * checked for the account they were bound with (R6).
 *
 * Reading changes nothing, so the page is asked while the binding is checked against the browser
 * (the message reaches only the bound document, which checks its own address and instance): the
 * page's answer is used — kept, journaled, returned — only if the binding still holds; otherwise
 * it is dropped and the refusal says what changed.
 */
import { success, type Outcome } from '../../shared/errors.ts';
import { siteLabel } from '../../shared/matchSite.ts';
import type { InspectArgs } from '../../shared/protocol.ts';
import type { InspectResult } from '../../shared/results.ts';
import { checkHandle } from '../core/checkHandle.ts';
import { inspectionView } from '../core/inspectionView.ts';
import type { RequestTrace } from '../core/requestTrace.ts';
import { revalidateNow } from './revalidateNow.ts';
import { expectationOf } from './runAct.ts';
import { checkScope } from '../core/scope.ts';
import type { ToolContext } from '../toolContext.ts';

export async function inspectTool(args: InspectArgs, trace: RequestTrace, context: ToolContext): Promise<Outcome<InspectResult>> {
  const scope = checkScope(context.local.getState(), args.profile ?? '', args.workspace ?? '');
  if (!scope.ok) return scope;
  const token = args.handle ?? '';
  const record = checkHandle(
    await context.handles.get(token),
    token,
    { profileId: scope.value.profile.id, workspaceId: scope.value.workspace.id },
    context.clock(),
  );
  if (!record.ok) return record;
  const { binding } = record.value;
  trace.targets = [{ tabId: binding.tabId, site: siteLabel(binding.url), title: binding.title, account: binding.account, role: binding.role }];

  const ask = () => {
    trace.point('dispatch');
    return context.askPage(binding.tabId, binding.documentId, {
      type: 'inspect',
      expect: expectationOf(binding),
      read: args.read ?? [],
      ...(args.readAs ? { readAs: args.readAs } : {}),
      ...(args.from ? { from: args.from } : {}),
    });
  };
  const check = () => revalidateNow(context, binding).finally(() => trace.point('decide'));
  let still: Awaited<ReturnType<typeof check>>;
  let inspected: Awaited<ReturnType<typeof ask>>;
  if (args.readAs === 'markdown') {
    // Reading as markdown may first load the act module into the page: only once the binding holds.
    still = await check();
    if (!still.ok) return still;
    inspected = await ask();
  } else {
    // The page's round trip is the longer one: its message goes out first.
    const asking = ask();
    [still, inspected] = await Promise.all([check(), asking]);
  }
  trace.point('observe');
  if (!still.ok) return still;
  if (!inspected.ok) return inspected;
  const page = inspected.value;
  trace.observation = {
    adapter: page.adapter,
    ...(page.adapterProblem ? { adapterProblem: page.adapterProblem } : {}),
    fields: page.fields.length,
    actions: page.actions.length,
    draft: page.draft.inProgress,
    signIn: page.signIn.state,
  };
  // The answer is known; what this inspect saw becomes the handle's expectation while the record is saved.
  const answer = trace.settle(success(inspectionView(page, binding.role)));
  await context.handles.rememberInspection(token, Object.fromEntries(page.fields.map((field) => [field.name, field.hash])), page.fieldElements);
  return answer;
}
