/**
 * Scenario 1: the service worker is stopped between resolve and act, between two steps of a plan,
 * and while a scheduled act waits. Afterwards the act reaches the same tab and document or is
 * refused — never another tab; an act retried with the same request id runs once.
 */
import type { ToolEnvelope } from '../../shared/protocol.ts';
import { expect, test } from '../fixtures.ts';
import { ok, ran, refused } from '../support/answers.ts';
import { blogModel, blogScene, inspect } from '../support/blogFlow.ts';
import { recordCounts } from './counts.ts';
import { untouched } from './untouched.ts';

test('stopped between resolve and act: the act lands on the bound tab and document', async ({ tether, sites }) => {
  const scene = await blogScene(tether);
  const decoy = await tether.open('blog', '/write');
  await inspect(tether, scene);
  const watch = await untouched([scene.cafe, decoy], sites);
  await tether.stopServiceWorker();
  await decoy.bringToFront();
  ok(
    await tether.agent('act', {
      profile: scene.profile,
      workspace: scene.workspace,
      handle: scene.write,
      plan: { steps: [{ op: 'fill', field: 'title', text: 'After the restart' }] },
    }),
  );
  expect((await blogModel(scene.blog)).title).toBe('After the restart');
  await watch.check();
  recordCounts({ scenario: 'worker stopped between resolve and act', writes: 1 });
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
  await tether.stopServiceWorker();
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
  const result = ran(ok(retried as unknown as ToolEnvelope<'act'>));
  expect(result.steps.map((step) => step.verified)).toEqual([true, true, true]);
  expect((await blogModel(scene.blog)).body).toBe('one two three');
  // Once more, after yet another restart: the same answer, no second run.
  await tether.stopServiceWorker();
  expect(ok(await tether.agent('act', args))).toEqual(result);
  expect((await blogModel(scene.blog)).body).toBe('one two three');
  await watch.check();
  recordCounts({ scenario: 'worker stopped between two steps', writes: 3 });
});

test('stopped while a scheduled act waits: it runs on its own tab at its time', async ({ tether, sites }) => {
  const scene = await blogScene(tether, { publishWithoutApproval: true });
  const decoy = await tether.open('blog', '/write');
  await inspect(tether, scene);
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
  await tether.stopServiceWorker();
  await decoy.bringToFront();
  await expect.poll(async () => (await blogModel(scene.blog)).title, { timeout: 20_000 }).toBe('Scheduled through a restart');
  await watch.check();
  expect(sites.state.blog.posts).toHaveLength(0);
  recordCounts({ scenario: 'worker stopped while a scheduled act waits', writes: 1 });
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
  const first = ok(await tether.agent('act', args));
  await tether.stopServiceWorker();
  for (let attempt = 0; attempt < 3; attempt += 1) expect(ok(await tether.agent('act', args))).toEqual(first);
  expect((await blogModel(scene.blog)).body).toBe('once;');
  await watch.check();
  recordCounts({ scenario: 'retried act runs once', inputs: 4, writes: 1 });
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
  await expect.poll(async () => (await tether.state()).approvals.length).toBe(1);
  await tether.stopServiceWorker();
  await lost;
  // The person approves after the worker was gone; no act is waiting any more.
  const [approval] = (await tether.state()).approvals;
  await tether.must({ type: 'approval.decide', approvalId: approval?.id ?? '', approve: true });
  // Another plan under the same request id does not inherit that approval.
  refused(await tether.agent('act', { ...args, plan: plan('Swapped title'), approvalTimeoutSeconds: 1 }), 'approval_required');
  expect(sites.state.blog.posts).toHaveLength(0);
  // The approved plan runs, once.
  ok(await tether.agent('act', { ...args, plan: plan('Approved title') }));
  await expect.poll(() => sites.state.blog.posts.map((post) => post.title)).toEqual(['Approved title']);
  await watch.check();
  recordCounts({ scenario: 'worker stopped while an approval waits', writes: 2 });
});

test('a scheduled act retried with the same request id is scheduled once', async ({ tether, sites }) => {
  const scene = await blogScene(tether, { publishWithoutApproval: true });
  await inspect(tether, scene);
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
  await tether.stopServiceWorker();
  expect(ok(await tether.agent('act', args))).toEqual(first);
  expect((await tether.state()).programs.filter((program) => program.status === 'scheduled')).toHaveLength(1);
  expect(sites.state.blog.posts).toHaveLength(0);
  recordCounts({ scenario: 'scheduled act retried', inputs: 2 });
});
