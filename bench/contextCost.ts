/**
 * Agent context cost of the blog-from-cafe task: every byte the agent must read (the tool list and
 * every answer's text), with Tether and with @playwright/mcp driving the same Debian Chromium
 * against the same demo sites. Tokens are estimated as bytes / 4.
 *
 * Two pairs of pages: the demo sites as they are (menus, sidebars, comments, a formatting toolbar:
 * the furniture real blogs and cafes carry), and a minimal pair (the editor's two fields and its
 * publish button; the post's title and body), where a page snapshot costs the least it can.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ToolName } from '../shared/agent/agentProtocol.ts';
import { CHROMIUM } from '../e2e/support/launchTether.ts';
import type { BenchTether } from './tetherSetup.ts';

export interface Transcript {
  who: string;
  toolListBytes: number;
  answers: Array<{ call: string; bytes: number }>;
  totalBytes: number;
  published: boolean;
}

/** The task's two pages. */
export interface TaskPages {
  name: string;
  /** The blog's post editor and the cafe post, as paths on their sites. */
  blogEditor: string;
  cafePost: string;
}

export const REALISTIC_PAGES: TaskPages = { name: 'demo pages', blogEditor: '/write?editor=plain', cafePost: '/posts/1' };
export const MINIMAL_PAGES: TaskPages = { name: 'minimal pages', blogEditor: '/write?minimal=1', cafePost: '/posts/1?minimal=1' };

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

function textOf(result: unknown): string {
  return (((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>).map((item) => item.text ?? '').join('');
}

export async function tetherTranscript(bench: BenchTether, pages: TaskPages): Promise<Transcript> {
  // The workspace's two tabs show the task's pages (a tab may move within its site).
  await bench.blog.goto(bench.sites.url('blog', pages.blogEditor));
  await bench.blog.waitForFunction(() => 'blogEditor' in window);
  await bench.cafe.goto(bench.sites.url('cafe', pages.cafePost));
  const posts = bench.sites.state.blog.posts.length;
  const tools = await bench.client.listTools();
  const answers: Transcript['answers'] = [];
  const step = async <T extends ToolName>(label: string, tool: T, args: Record<string, unknown>) => {
    const { envelope, text } = await bench.call(tool, args);
    answers.push({ call: label, bytes: bytes(text) });
    if (!envelope.ok) throw new Error(`${label}: ${envelope.error.message}`);
    return envelope.result;
  };
  const context = await step('context', 'context', {});
  const profile = context.profiles[0];
  const scope = { profile: profile?.id, workspace: profile?.workspaces[0]?.id };
  const resolved = await step('resolve blog ← cafe', 'resolve', { ...scope, destination: { site: 'blog' }, references: [{ site: 'cafe' }] });
  const source = await step('inspect cafe (read post)', 'inspect', { ...scope, handle: resolved.references?.[0]?.handle, read: ['post.title', 'post.body'] });
  await step('inspect blog editor', 'inspect', { ...scope, handle: resolved.write?.handle });
  await step('act: title, body, publish', 'act', {
    ...scope,
    handle: resolved.write?.handle,
    plan: {
      steps: [
        { op: 'fill', field: 'title', text: `From the cafe: ${source.text?.['post.title'] ?? ''}` },
        { op: 'fill', field: 'body', text: source.text?.['post.body'] ?? '' },
        { op: 'click', action: 'publish' },
      ],
    },
  });
  const toolListBytes = bytes(JSON.stringify(tools.tools));
  const deadline = Date.now() + 10_000;
  while (bench.sites.state.blog.posts.length === posts && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
  // The editor moves to the published post.
  await bench.blog.waitForURL(/\/posts\/\d+$/);
  return {
    who: 'Tether',
    toolListBytes,
    answers,
    totalBytes: toolListBytes + answers.reduce((sum, answer) => sum + answer.bytes, 0),
    published: bench.sites.state.blog.posts.length === posts + 1,
  };
}

function ref(snapshot: string, pattern: RegExp, what: string): string {
  const found = pattern.exec(snapshot)?.[1];
  if (!found) throw new Error(`Playwright MCP snapshot has no ${what}:\n${snapshot.slice(0, 3000)}`);
  return found;
}

/** @playwright/mcp driving its own headless Debian Chromium, as an agent would start it. */
export async function startPlaywrightMcp(): Promise<Client> {
  const client = new Client({ name: 'tether-bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: 'npx',
      args: [
        '@playwright/mcp',
        '--executable-path',
        CHROMIUM,
        '--headless',
        '--isolated',
        '--no-sandbox',
        '--output-dir',
        mkdtempSync(join(tmpdir(), 'pwmcp-')),
      ],
      stderr: 'ignore',
    }),
  );
  return client;
}

/** What a model reads of a Playwright MCP answer: its text content. */
export async function playwrightMcpText(client: Client, tool: string, args: Record<string, unknown>): Promise<string> {
  return textOf(await client.callTool({ name: tool, arguments: args }));
}

export async function playwrightMcpTranscript(bench: BenchTether, pages: TaskPages): Promise<Transcript & { version: string }> {
  const posts = bench.sites.state.blog.posts.length;
  const client = await startPlaywrightMcp();
  try {
    const version = client.getServerVersion()?.version ?? '?';
    const tools = await client.listTools();
    const answers: Transcript['answers'] = [];
    const step = async (label: string, tool: string, args: Record<string, unknown>) => {
      const text = await playwrightMcpText(client, tool, args);
      answers.push({ call: label, bytes: bytes(text) });
      return text;
    };
    const signedIn = (account: string, path: string) => `/login?as=${account}&next=${encodeURIComponent(path)}`;
    await step('navigate to the cafe post', 'browser_navigate', { url: bench.sites.url('cafe', signedIn('alice_k', pages.cafePost)) });
    await step('snapshot (read post)', 'browser_snapshot', {});
    await step('navigate to the blog editor', 'browser_navigate', { url: bench.sites.url('blog', signedIn('alice', pages.blogEditor)) });
    const editor = await step('snapshot (find fields)', 'browser_snapshot', {});
    await step('type title', 'browser_type', {
      element: 'Title',
      target: ref(editor, /textbox "Title" \[ref=(\w+)\]/, 'title box'),
      text: 'From the cafe: Weekly notes: spring market',
    });
    await step('type body', 'browser_type', {
      element: 'Body',
      target: ref(editor, /textbox "Body" \[ref=(\w+)\]/, 'body box'),
      text: 'The spring market opens Saturday at 10am by the river.\nBring your own cup: the tea stall gives a discount.\nVolunteers meet at the north gate at 9am.',
    });
    await step('click publish', 'browser_click', { element: 'Publish', target: ref(editor, /button "Publish" \[ref=(\w+)\]/, 'publish button') });
    const toolListBytes = bytes(JSON.stringify(tools.tools));
    const deadline = Date.now() + 10_000;
    while (bench.sites.state.blog.posts.length === posts && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
    return {
      who: `@playwright/mcp ${version}`,
      version,
      toolListBytes,
      answers,
      totalBytes: toolListBytes + answers.reduce((sum, answer) => sum + answer.bytes, 0),
      published: bench.sites.state.blog.posts.length === posts + 1,
    };
  } finally {
    await client.close();
  }
}
