/**
 * The checks made at the moment of a write, each in a situation only that check catches:
 * - the page's own script changes a field after the plan was validated and before the step that
 *   writes it (a page deriving the address from the title): the comparison right before each
 *   write refuses with field_changed and puts back what earlier steps wrote;
 * - two tabs at one exact address: a request naming that address is ambiguous, and the answer lists
 *   both tabs — the resolver never takes the first.
 */
import { expect, test } from '../fixtures.ts';
import { ok } from '../support/answers.ts';
import { scenarioCounts } from './counts.ts';
import { untouched } from './untouched.ts';

test('the page’s own script changes a field between validation and its write → field_changed, nothing written', async ({ tether, sites }) => {
  const counts = scenarioCounts('a field the page changes while the plan runs');
  await tether.signIn('notes', 'alice');
  await tether.signIn('blog', 'alice');
  const bystander = await tether.open('blog', '/write');
  const page = await tether.open('notes', '/hostile/slug');
  await page.waitForFunction(() => 'attack' in window);
  const workspace = (await tether.workspaceOf([page], { writable: ['notes'] })).id;
  const profile = await tether.profileId();
  const handle = ok(await tether.agent('resolve', { profile, workspace, destination: { site: 'notes' } })).write?.handle;
  const watch = await untouched([bystander], sites);
  const inspected = ok(await tether.agent('inspect', { profile, workspace, handle }));
  const names = inspected.fields?.map((field) => field.name) ?? [];
  expect(names).toEqual(['title', 'body', 'slug']);
  const fields = () => page.evaluate(() => ['#post-title', '#slug', '#text'].map((selector) => document.querySelector<HTMLInputElement>(selector)?.value));
  // At validation every field holds what inspect saw; writing the title makes the page rewrite the address.
  const refusal = counts.refused(
    await tether.agent('act', {
      profile,
      workspace,
      handle,
      plan: {
        steps: [
          { op: 'fill', field: 'title', text: 'Spring market' },
          { op: 'fill', field: 'slug', text: 'spring-market-2026' },
          { op: 'fill', field: 'body', text: 'Stalls from nine.' },
        ],
      },
    }),
    'field_changed',
  );
  expect(refusal.details).toMatchObject({
    problems: [{ step: 1, code: 'field_changed' }],
    ran: [0],
    rolledBack: [0],
  });
  // The page set the value from its script, with no input event: nobody is blamed for it.
  expect((refusal.details?.problems as Array<{ cause?: string }>)[0]?.cause).toBeUndefined();
  // The title was put back (and with it the page's own address); the plan's text is nowhere.
  expect(await fields()).toEqual(['', '', '']);
  // Told what the page does, the agent writes the title alone and lets the page derive the address.
  ok(await tether.agent('inspect', { profile, workspace, handle }));
  counts.write(await tether.agent('act', { profile, workspace, handle, plan: { steps: [{ op: 'fill', field: 'title', text: 'Spring market' }] } }));
  expect(await fields()).toEqual(['Spring market', 'spring-market', '']);
  await watch.check();
  counts.save();
});

test('two tabs at one exact address: ambiguous_target listing both, as a destination and as a reference', async ({ tether, sites }) => {
  const counts = scenarioCounts('two tabs at one exact address');
  await tether.signIn('blog', 'alice');
  await tether.signIn('cafe', 'alice_k');
  const first = await tether.open('blog', '/write?editor=plain');
  // Opened elsewhere, then sent to the very same address (tabIdOf needs one tab per address).
  const second = await tether.open('blog', '/write?editor=plain&copy=1');
  const cafe = await tether.open('cafe', '/posts/1');
  const ids = [await tether.tabIdOf(first), await tether.tabIdOf(second)];
  const workspace = (await tether.workspaceOf([first, second, cafe], { writable: ['blog'] })).id;
  await second.goto(first.url());
  await second.waitForFunction(() => 'blogEditor' in window);
  const profile = await tether.profileId();
  const watch = await untouched([first, second, cafe], sites);
  const address = first.url();
  const listed = (details: Record<string, unknown> | undefined) =>
    ((details?.candidates as Array<{ tabId: number; url: string }> | undefined) ?? []).map((candidate) => [candidate.tabId, candidate.url]);
  // Both members show the address (the resolver reads the tabs as the browser reports them now).
  await expect
    .poll(async () =>
      (await tether.state()).workspaces
        .find((item) => item.id === workspace)
        ?.tabs.filter((item) => item.url === address)
        .map((item) => item.tabId),
    )
    .toEqual(ids);
  const asDestination = counts.refused(await tether.agent('resolve', { profile, workspace, destination: { url: address } }), 'ambiguous_target');
  expect(asDestination.details?.role).toBe('write');
  expect(listed(asDestination.details)).toEqual(ids.map((id) => [id, address]));
  const asReference = counts.refused(
    await tether.agent('resolve', { profile, workspace, readOnly: true, references: [{ url: `${address}#section` }] }),
    'ambiguous_target',
  );
  expect(asReference.details?.role).toBe('reference');
  expect(listed(asReference.details)).toEqual(ids.map((id) => [id, address]));
  // Named by tab id instead, either one resolves (and only that one).
  for (const id of ids) expect(ok(await tether.agent('resolve', { profile, workspace, destination: { tabId: id } })).write?.tabId).toBe(id);
  await watch.check();
  counts.save();
});
