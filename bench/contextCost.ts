/**
 * Agent context cost of the blog-from-cafe task: every byte the agent must read (the tool list and
 * every answer's text), with Tether and with @playwright/mcp driving the same Debian Chromium
 * against the same demo sites. Tokens are estimated as bytes / 4.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CHROMIUM } from '../e2e/support/launchTether.ts';
import type { BenchTether } from './tetherSetup.ts';

export interface Transcript {
  who: string;
  toolListBytes: number;
  answers: Array<{ call: string; bytes: number }>;
  totalBytes: number;
  published: boolean;
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

function textOf(result: unknown): string {
  return (((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>).map((item) => item.text ?? '').join('');
}

export async function tetherTranscript(bench: BenchTether): Promise<Transcript> {
  const posts = bench.sites.state.blog.posts.length;
  const tools = await bench.client.listTools();
  const answers: Transcript['answers'] = [];
  const step = async (label: string, tool: string, args: Record<string, unknown>) => {
    const { envelope, text } = await bench.call(tool, args);
    answers.push({ call: label, bytes: bytes(text) });
    if (!envelope.ok) throw new Error(`${label}: ${envelope.error.message}`);
    return envelope.result as Record<string, unknown>;
  };
  const context = await step('context', 'context', {});
  const profile = ((context.profiles as Array<{ id: string; workspaces: Array<{ id: string }> }>)[0]);
  const scope = { profile: profile?.id, workspace: profile?.workspaces[0]?.id };
  const resolved = (await step('resolve blog ← cafe', 'resolve', { ...scope, destination: { site: 'blog' }, references: [{ site: 'cafe' }] })) as {
    write: { handle: string };
    references: Array<{ handle: string }>;
  };
  const source = (await step('inspect cafe (read post)', 'inspect', { ...scope, handle: resolved.references[0]?.handle, read: ['post.title', 'post.body'] })) as {
    text: Record<string, string>;
  };
  await step('inspect blog editor', 'inspect', { ...scope, handle: resolved.write.handle });
  await step('act: title, body, publish', 'act', {
    ...scope,
    handle: resolved.write.handle,
    plan: {
      steps: [
        { op: 'fill', field: 'title', text: `From the cafe: ${source.text['post.title']}` },
        { op: 'fill', field: 'body', text: source.text['post.body'] },
        { op: 'click', action: 'publish' },
      ],
    },
  });
  const toolListBytes = bytes(JSON.stringify(tools.tools));
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

export async function playwrightMcpTranscript(bench: BenchTether): Promise<Transcript & { version: string }> {
  const posts = bench.sites.state.blog.posts.length;
  const client = new Client({ name: 'tether-bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: 'npx',
      args: ['@playwright/mcp', '--executable-path', CHROMIUM, '--headless', '--isolated', '--no-sandbox', '--output-dir', mkdtempSync(join(tmpdir(), 'pwmcp-'))],
      stderr: 'ignore',
    }),
  );
  try {
    const version = client.getServerVersion()?.version ?? '?';
    const tools = await client.listTools();
    const answers: Transcript['answers'] = [];
    const step = async (label: string, tool: string, args: Record<string, unknown>) => {
      const text = textOf(await client.callTool({ name: tool, arguments: args }));
      answers.push({ call: label, bytes: bytes(text) });
      return text;
    };
    await step('navigate to the cafe post', 'browser_navigate', { url: bench.sites.url('cafe', '/login?as=alice_k&next=/posts/1') });
    await step('snapshot (read post)', 'browser_snapshot', {});
    await step('navigate to the blog editor', 'browser_navigate', { url: bench.sites.url('blog', '/login?as=alice&next=/write') });
    const editor = await step('snapshot (find fields)', 'browser_snapshot', {});
    await step('type title', 'browser_type', { element: 'Title', target: ref(editor, /textbox "Title" \[ref=(\w+)\]/, 'title box'), text: 'From the cafe: Weekly notes: spring market' });
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
