/**
 * Scenario 1: the service worker is stopped between resolve and act, between two steps of a plan,
 * and while a scheduled act waits. Afterwards the act reaches the same tab and document or is
 * refused — never another tab; an act retried with the same request id runs once. Every scenario
 * proves the worker stopped (stopServiceWorker throws otherwise) and that a new worker, started
 * later, served what came after.
 */
import type { ToolEnvelope } from '../../shared/agent/agentProtocol.ts';
import { expect, test } from '../fixtures.ts';
import type { JournalRecord } from '../../shared/model/journalRecord.ts';
import { ok, ran } from '../support/answers.ts';
import { blogModel, blogScene, inspect } from '../support/blogFlow.ts';
import type { TetherDriver } from '../support/tetherDriver.ts';
import { scenarioCounts } from './counts.ts';
import { untouched } from './untouched.ts';

async function journal(tether: TetherDriver): Promise<JournalRecord[]> {
  return tether.must({ type: 'journal.list', limit: 100 });
}

test('stopped between resolve and act: the act lands on the bound tab and document', async ({ tether, sites }) => {
  const scene = await blogScene(tether);
  const decoy = await tether.open('blog', '/write');
  await inspect(tether, scene);
  const counts = scenarioCounts('worker stopped between resolve and act');
  const watch = await untouched([scene.cafe, decoy], sites);
  const stop = await tether.stopServiceWorker();
  await decoy.bringToFront();
  counts.checkedWrite(
    await tether.agent('act', {
      profile: scene.profile,
      workspace: scene.workspace,
      handle: scene.write,
      plan: { steps: [{ op: 'fill', field: 'title', text: 'After the restart' }] },
    }),
  );
  await tether.expectNewBackgroundServed(stop);
  expect((await blogModel(scene.blog)).title).toBe('After the restart');
  await watch.check();
  counts.save();
});

test('stopped between two steps of a plan: the retry with the same request id reports the one run', async ({ tether, sites }) => {
  const scene = await blogScene(tether, { editor: 'slow' });
  await inspect(tether, scene);
  const watch = await untouched([scene.cafe], sites);
  const plan = {
    steps: [
      { op: 'append', field: 'body', text: 'one ' },
      { op: 'append', field: 'body', text: 'two ' },
      { op: 'append', field: 'body', text: 'three' },
    ],
  };
  const args = { profile: scene.profile, workspace: scene.workspace, handle: scene.write, plan, requestId: 'slow-plan-1' };
  // The first answer is lost with the worker.
  const lost = tether.agent('act', args).catch((error: unknown) => error);
  await expect.poll(async () => scene.blog.evaluate(() => (document.querySelector('#post-body') as HTMLTextAreaElement).value)).toContain('one');
  const counts = scenarioCounts('worker stopped between two steps');
  const stop = await tether.stopServiceWorker();
  await lost;
  let retried: ToolEnvelope<'act'> | null = null;
  await expect
    .poll(
      async () => {
        retried = await tether.agent('act', args);
        return retried.ok ? 'ok' : retried.error.code;
      },
      { timeout: 20_000 },
    )
    .toBe('ok');
  // The plan the stopped worker sent ran on in the page; the new worker, revalidating the binding, got its result.
  const result = ran(ok(retried as unknown as ToolEnvelope<'act'>));
  counts.checkedWrite(retried as unknown as ToolEnvelope<'act'>);
  await tether.expectNewBackgroundServed(stop);
  expect(result.steps.map((step) => step.verified)).toEqual([true, true, true]);
  expect((await blogModel(scene.blog)).body).toBe('one two three');
  // Once more, after yet another restart: the same answer, no second run (a replay, not a write).
  const again = await tether.stopServiceWorker();
  expect(ok(await tether.agent('act', args))).toEqual(result);
  await tether.expectNewBackgroundServed(again);
  expect((await blogModel(scene.blog)).body).toBe('one two three');
  await watch.check();
  counts.save();
});

test('stopped while a scheduled act waits: it runs on its own tab at its time', async ({ tether, sites }) => {
  const scene = await blogScene(tether, { publishWithoutApproval: true });
  const decoy = await tether.open('blog', '/write');
  await inspect(tether, scene);
  const counts = scenarioCounts('worker stopped while a scheduled act waits');
  const watch = await untouched([scene.cafe, decoy], sites);
  ok(
    await tether.agent('act', {
      profile: scene.profile,
      workspace: scene.workspace,
      handle: scene.write,
      at: new Date(Date.now() + 3000).toISOString(),
      plan: { steps: [{ op: 'fill', field: 'title', text: 'Scheduled through a restart' }] },
    }),
  );
  const stop = await tether.stopServiceWorker();
  await decoy.bringToFront();
  await expect.poll(async () => (await blogModel(scene.blog)).title, { timeout: 20_000 }).toBe('Scheduled through a restart');
  // The alarm woke a new worker, which revalidated the binding and ran the act: its journal says so.
  await tether.expectNewBackgroundServed(stop);
  const record = (await journal(tether)).find((item) => item.via === 'schedule');
  expect(record).toBeDefined();
  counts.checkedWrite(record as JournalRecord);
  await watch.check();
  expect(sites.state.blog.posts).toHaveLength(0);
  counts.save();
});

test('an act retried with the same request id runs once, across a restart', async ({ tether, sites }) => {
  const scene = await blogScene(tether);
  await inspect(tether, scene);
  const watch = await untouched([scene.cafe], sites);
  const args = {
    profile: scene.profile,
    workspace: scene.workspace,
    handle: scene.write,
    requestId: 'once',
    plan: { steps: [{ op: 'append', field: 'body', text: 'once;' }] },
  };
  const counts = scenarioCounts('retried act runs once');
  const first = counts.write(await tether.agent('act', args));
  const stop = await tether.stopServiceWorker();
  // Retries are answered from the record, by a new worker: the same answer, no second write.
  for (let attempt = 0; attempt < 3; attempt += 1) expect(ok(await tether.agent('act', args))).toEqual(first);
  await tether.expectNewBackgroundServed(stop);
  expect((await blogModel(scene.blog)).body).toBe('once;');
  await watch.check();
  counts.save();
});

test('stopped while an approval waits: the person’s later approval serves that plan only, once', async ({ tether, sites }) => {
  const scene = await blogScene(tether);
  await inspect(tether, scene);
  const watch = await untouched([scene.cafe], sites, ['blog']);
  const plan = (title: string) => ({
    steps: [
      { op: 'fill', field: 'title', text: title },
      { op: 'click', action: 'publish' },
    ],
  });
  const args = { profile: scene.profile, workspace: scene.workspace, handle: scene.write, requestId: 'approve-once' };
  const lost = tether.agent('act', { ...args, plan: plan('Approved title'), approvalTimeoutSeconds: 120 }).catch((error: unknown) => error);
  const counts = scenarioCounts('worker stopped while an approval waits');
  await expect.poll(async () => (await tether.state()).approvals.length).toBe(1);
  const stop = await tether.stopServiceWorker();
  await lost;
  // The person approves after the worker was gone; no act is waiting any more.
  const [approval] = (await tether.state()).approvals;
  await tether.must({ type: 'approval.decide', approvalId: approval?.id ?? '', approve: true });
  // Another plan under the same request id does not inherit that approval.
  counts.refused(await tether.agent('act', { ...args, plan: plan('Swapped title'), approvalTimeoutSeconds: 1 }), 'approval_required');
  await tether.expectNewBackgroundServed(stop);
  expect(sites.state.blog.posts).toHaveLength(0);
  // The approved plan runs, once.
  counts.checkedWrite(await tether.agent('act', { ...args, plan: plan('Approved title') }));
  await expect.poll(() => sites.state.blog.posts.map((post) => post.title)).toEqual(['Approved title']);
  await watch.check();
  counts.save();
});

test('a scheduled act retried with the same request id is scheduled once', async ({ tether, sites }) => {
  const scene = await blogScene(tether, { publishWithoutApproval: true });
  await inspect(tether, scene);
  const counts = scenarioCounts('scheduled act retried');
  // Nothing is written during the scenario (the act is due in a minute): both pages stay as they are.
  const watch = await untouched([scene.blog, scene.cafe], sites);
  const args = {
    profile: scene.profile,
    workspace: scene.workspace,
    handle: scene.write,
    requestId: 'schedule-once',
    at: new Date(Date.now() + 60_000).toISOString(),
    plan: {
      steps: [
        { op: 'fill', field: 'title', text: 'Later' },
        { op: 'click', action: 'publish' },
      ],
    },
  };
  const first = ok(await tether.agent('act', args));
  const stop = await tether.stopServiceWorker();
  expect(ok(await tether.agent('act', args))).toEqual(first);
  await tether.expectNewBackgroundServed(stop);
  expect((await tether.state()).programs.filter((program) => program.status === 'scheduled')).toHaveLength(1);
  expect(sites.state.blog.posts).toHaveLength(0);
  await watch.check();
  counts.save();
});
