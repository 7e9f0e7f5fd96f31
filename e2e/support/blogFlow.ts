/** Common setup of the blog-and-cafe scenes the editing and agent suites start from. */
import type { Page } from '@playwright/test';
import type { InspectResult } from '../../shared/agent/results.ts';
import { ok } from './answers.ts';
import type { TabPage, TetherClient } from './tetherClient.ts';

export interface BlogScene<P extends TabPage = Page> {
  blog: P;
  cafe: P;
  profile: string;
  workspace: string;
  write: string;
  reference: string;
}

export async function blogScene<P extends TabPage>(
  tether: TetherClient<P>,
  options: { editor?: string; publishWithoutApproval?: boolean; cafePath?: string; writable?: Array<'blog' | 'cafe'> } = {},
): Promise<BlogScene<P>> {
  await tether.signIn('blog', 'alice');
  await tether.signIn('cafe', 'alice_k');
  const blog = await tether.open('blog', `/write?editor=${options.editor ?? 'plain'}`);
  const cafe = await tether.open('cafe', options.cafePath ?? '/posts/1');
  await blog.waitForFunction(() => 'blogEditor' in window);
  const workspace = await tether.workspaceOf([blog, cafe], {
    writable: options.writable ?? ['blog'],
    publishWithoutApproval: options.publishWithoutApproval ?? false,
  });
  const profile = await tether.profileId();
  const resolved = ok(await tether.agent('resolve', { profile, workspace: workspace.id, destination: { site: 'blog' }, references: [{ site: 'cafe' }] }));
  return {
    blog,
    cafe,
    profile,
    workspace: workspace.id,
    write: resolved.write?.handle ?? '',
    reference: resolved.references?.[0]?.handle ?? '',
  };
}

export async function inspect<P extends TabPage>(
  tether: TetherClient<P>,
  scene: BlogScene<P>,
  handle = scene.write,
  read: string[] = [],
): Promise<InspectResult> {
  return ok(await tether.agent('inspect', { profile: scene.profile, workspace: scene.workspace, handle, read }));
}

/** What the blog page's own model holds (the editor's API, or React state), not the DOM. */
export async function blogModel(page: TabPage): Promise<{ title: string; body: string }> {
  return page.evaluate(() => {
    const editor = (window as unknown as { blogEditor: { getBody(): string; getTitle(): string } }).blogEditor;
    return { title: editor.getTitle(), body: editor.getBody() };
  });
}
