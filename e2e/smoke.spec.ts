import { expect, test } from './fixtures.ts';

test('smoke: resolve and inspect', async ({ tether }) => {
  await tether.signIn('blog', 'alice');
  const blog = await tether.open('blog', '/write');
  const cafe = await tether.open('cafe', '/posts/1');
  const ws = await tether.workspaceOf([blog, cafe], { writable: ['blog'] });
  const profile = await tether.profileId();
  const resolved = await tether.agent('resolve', { profile, workspace: ws.id, destination: { site: 'blog' }, references: [{ site: 'cafe' }] });
  console.log(JSON.stringify(resolved, null, 1));
  expect(resolved.ok).toBe(true);
  const handle = (resolved as { result: { write: { handle: string } } }).result.write.handle;
  const inspected = await tether.agent('inspect', { profile, workspace: ws.id, handle });
  console.log(JSON.stringify(inspected, null, 1));
  await tether.stopServiceWorker();
  const again = await tether.agent('inspect', { profile, workspace: ws.id, handle });
  expect(again.ok).toBe(true);
});
