/** A notes-site page hosting one editor family, shared in a workspace, with a write handle. */
import type { Page } from '@playwright/test';
import type { ToolEnvelope } from '../../shared/agent/agentProtocol.ts';
import type { InspectResult } from '../../shared/agent/results.ts';
import { ok } from './answers.ts';
import type { TetherDriver } from './tetherDriver.ts';

export interface EditorScene {
  page: Page;
  profile: string;
  workspace: string;
  handle: string;
  act(plan: { steps: unknown[]; continueDraft?: boolean }): Promise<ToolEnvelope<'act'>>;
  inspect(read?: string[], readAs?: 'text' | 'markdown'): Promise<InspectResult>;
  /** The editor's own model, read through its API in the page's main world. */
  model(): Promise<{ html: string; text: string }>;
}

export async function editorScene(tether: TetherDriver, family: string, query = ''): Promise<EditorScene> {
  await tether.signIn('notes', 'alice');
  const page = await tether.open('notes', `/editor/${family}${query}`);
  await page.waitForFunction(() => document.body.dataset.editorReady !== undefined);
  const workspace = (await tether.workspaceOf([page], { writable: ['notes'] })).id;
  const profile = await tether.profileId();
  const resolved = ok(await tether.agent('resolve', { profile, workspace, destination: { site: 'notes' }, continueDraft: true }));
  const handle = resolved.write?.handle ?? '';
  return {
    page,
    profile,
    workspace,
    handle,
    act: (plan) => tether.agent('act', { profile, workspace, handle, plan }),
    inspect: async (read = [], readAs) => ok(await tether.agent('inspect', { profile, workspace, handle, read, ...(readAs ? { readAs } : {}) })),
    model: () =>
      page.evaluate(async () => {
        const api = (window as unknown as { editorApi: { html(): string | Promise<string>; text(): string | Promise<string> } }).editorApi;
        return { html: await api.html(), text: await api.text() };
      }),
  };
}

/** The constructs an editor's own serialization holds (tags, by canonical name), and its links. */
export async function structureOf(page: Page, html: string): Promise<{ tags: string[]; links: string[] }> {
  return page.evaluate((markup) => {
    const body = new DOMParser().parseFromString(markup, 'text/html').body;
    const canonical: Record<string, string> = { B: 'strong', STRONG: 'strong', I: 'em', EM: 'em', S: 's', DEL: 's', STRIKE: 's' };
    const tags = new Set<string>();
    body.querySelectorAll('*').forEach((element) => {
      const name = canonical[element.tagName] ?? element.tagName.toLowerCase();
      if (name === 'code' && element.closest('pre')) return;
      tags.add(name);
    });
    return { tags: [...tags].sort(), links: Array.from(body.querySelectorAll('a')).map((link) => link.getAttribute('href') ?? '') };
  }, html);
}
