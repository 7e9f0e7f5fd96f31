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
import { success, tetherError, type Outcome } from '../../shared/errors.ts';
import { siteLabel } from '../../shared/model/matchSite.ts';
import { inspectArgsSchema, type InspectArgs } from '../../shared/agent/agentProtocol.ts';
import type { InspectResult } from '../../shared/agent/results.ts';
import { inspectionView } from '../core/inspectionView.ts';
import type { RequestTrace } from '../core/requestTrace.ts';
import { defineTool, withHandle, type HandleScope } from './defineTool.ts';
import { revalidateNow } from './revalidateNow.ts';
import { expectationOf } from './runAct.ts';
import type { ToolContext } from '../toolContext.ts';

export const inspectTool = defineTool({
  name: 'inspect',
  args: inspectArgsSchema,
  description: 'A handle’s page now, checked first: sign-in, fields (name, kind, hash), draft, actions, text of what read names.',
  needs: { context: ['profile', 'workspace', 'handle'], role: 'any' },
  // Reading on is from a place in a text being read: a name `from` gives must be in `read`.
  refine(args) {
    const strays = Object.keys(args.from ?? {}).filter((name) => !(args.read ?? []).includes(name));
    return strays.length > 0
      ? tetherError('invalid_request', `from names ${strays.join(', ')}, which read does not: name each text in read too.`, { from: strays.slice(0, 20) })
      : null;
  },
  handler: withHandle(inspect),
});

async function inspect(args: InspectArgs, { token, handle }: HandleScope, trace: RequestTrace, context: ToolContext): Promise<Outcome<InspectResult>> {
  const { binding } = handle;
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
