/**
 * The worker's half of an act's images, against a fake browser: a local file waits for the
 * person (and is never staged if they decline), the site's standing permission skips the
 * question, a reference image is taken from the address its page shows and checked against what
 * the page decoded, and the page's plan carries no bytes.
 */
import { describe, expect, it } from 'vitest';
import { success } from '../../shared/errors.ts';
import { encodeBase64 } from '../../shared/imageBytes.ts';
import type { ActArgs, Plan } from '../../shared/agent/agentProtocol.ts';
import { binding, PROFILE, tab, workspace } from '../../shared/testing/fixtures.ts';
import { makePng } from '../../shared/testing/imageFixtures.ts';
import type { Approval } from '../../shared/model/approval.ts';
import { RequestTrace } from '../core/requestTrace.ts';
import { fakeToolContext, type FakeToolContext } from '../testing/fakeToolContext.ts';
import { actTool } from './actTool.ts';

const BLOG = 'https://blog.example';
const blogTab = tab(1, `${BLOG}/write`, 'Post');
const cafeTab = tab(2, 'https://cafe.example/notes', 'Notes');
const PHOTO = new Uint8Array(makePng(64, 48));
const FILE_PLAN: Plan = {
  steps: [{ op: 'image', field: 'body', alt: 'Lake', source: { file: '/home/me/lake.png', data: encodeBase64(PHOTO) }, expect: { text: '' } }],
};

async function setup(options: { uploadImagesWithoutAsking?: boolean } = {}) {
  const space = workspace([blogTab, cafeTab], [BLOG]);
  if (options.uploadImagesWithoutAsking) space.sites[BLOG] = { writable: true, publishWithoutApproval: false, uploadImagesWithoutAsking: true };
  const other = workspace([cafeTab], [], { id: 'ws_other' });
  const context = fakeToolContext({ workspaces: [space, other], tabs: [blogTab, cafeTab] });
  const handle = await context.mintWrite(binding(blogTab), { body: 'el-1-body' });
  const ref = await context.handles.mint(binding(cafeTab, { role: 'reference' }), 'rq_resolve', context.now);
  const elsewhere = await context.handles.mint(binding(cafeTab, { role: 'reference', workspaceId: 'ws_other' }), 'rq_resolve', context.now);
  const act = (plan: Plan) => {
    const full: ActArgs = { profile: PROFILE, workspace: 'ws_test', handle, plan };
    const trace = new RequestTrace('act', 'agent', full, undefined);
    return { trace, answer: actTool.handler(full, trace, context) };
  };
  return { context, handle, ref, elsewhere, act };
}

type Scene = Awaited<ReturnType<typeof setup>>;

function asked(context: FakeToolContext, type: string) {
  return context.asked.filter(({ request }) => request.type === type).map(({ request }) => request as unknown as Record<string, unknown>);
}

function pending(context: FakeToolContext): Approval | undefined {
  return Object.values(context.session.getState().approvals).find((approval) => approval.decision === 'pending');
}

describe('act with images (the worker)', () => {
  it('a local file waits for the person; declined, its bytes never reach the page', async () => {
    const { context, act } = await setup();
    const { answer } = act(FILE_PLAN);
    await expect.poll(() => pending(context)).toBeDefined();
    expect(pending(context)?.images).toEqual([
      { name: 'lake.png', from: '/home/me/lake.png', kind: 'file', bytes: PHOTO.length, width: 64, height: 48, asks: true },
    ]);
    expect(asked(context, 'stageImage')).toHaveLength(0);
    await context.approvals.decide(pending(context)?.id ?? '', false);
    const result = await answer;
    expect(result.ok ? 'ok' : result.error.code).toBe('approval_denied');
    expect(asked(context, 'stageImage')).toHaveLength(0);
    expect(asked(context, 'act').filter((request) => request.dryRun === false)).toHaveLength(0);
  });

  it('approved, the bytes are staged ahead of the run; the page’s plan carries their digest, not them', async () => {
    const { context, act } = await setup();
    const { answer } = act(FILE_PLAN);
    await expect.poll(() => pending(context)).toBeDefined();
    await context.approvals.decide(pending(context)?.id ?? '', true);
    expect((await answer).ok).toBe(true);
    const [staged] = asked(context, 'stageImage');
    expect(staged).toMatchObject({ id: 'im0', name: 'lake.png', data: encodeBase64(PHOTO) });
    const run = asked(context, 'act').find((request) => request.dryRun === false);
    expect(run?.images).toEqual([{ use: '0', id: 'im0', name: 'lake.png', type: 'image/png' }]);
    // The dry run gets no bytes, only each image's type by them (what a file chooser's accept= is checked against).
    const dry = asked(context, 'act').find((request) => request.dryRun === true);
    expect(dry?.images).toEqual([{ use: '0', id: 'im0', name: 'lake.png', type: 'image/png' }]);
    expect(JSON.stringify(run?.plan)).not.toContain(encodeBase64(PHOTO));
    expect(JSON.stringify(run?.plan)).toMatch(/sha256-[0-9a-f]{64}/);
  });

  it('the site’s standing permission: no question, the file goes', async () => {
    const { context, act } = await setup({ uploadImagesWithoutAsking: true });
    expect((await act(FILE_PLAN).answer).ok).toBe(true);
    expect(context.session.getState().approvals).toEqual({});
    expect(asked(context, 'stageImage')).toHaveLength(1);
  });

  it('a reference page’s image: from the address the page shows, checked against what it decoded; no question; in the journal', async () => {
    const { context, ref, act } = await setup();
    context.page.image = () => success({ url: 'https://cdn.cafe.example/ridge.png', width: 64, height: 48, alt: 'Ridge' });
    context.images.set('https://cdn.cafe.example/ridge.png', PHOTO);
    const { answer, trace } = act({ steps: [{ op: 'image', field: 'body', alt: 'Ridge', source: { ref, image: 'ridge' }, expect: { text: '' } }] });
    expect((await answer).ok).toBe(true);
    expect(context.session.getState().approvals).toEqual({});
    expect(asked(context, 'image')).toMatchObject([{ name: 'ridge' }]);
    expect(asked(context, 'stageImage')).toMatchObject([{ name: 'ridge.png', data: encodeBase64(PHOTO) }]);
    expect(trace.images).toEqual([
      { kind: 'reference', from: expect.stringContaining('ridge'), name: 'ridge.png', bytes: PHOTO.length, width: 64, height: 48 },
    ]);
  });

  // Both seen in Chromium 156 (2026-12-01): a JPEG whose EXIF orientation turns it a quarter shows
  // its sides swapped (naturalWidth is the turned width), and a srcset candidate of density 2 (a
  // phone's or a laptop's 2x screen picks it) shows at half the size of its bytes.
  it.each([
    ['turned a quarter by its EXIF orientation', 48, 64],
    ['at half its size (srcset 2x)', 32, 24],
    ['at a third of its size (srcset 3x, rounded)', 21, 16],
  ])('a reference image the page shows %s is the same image', async (_how, width, height) => {
    const { context, ref, act } = await setup();
    context.page.image = () => success({ url: 'https://cdn.cafe.example/ridge.png', width, height, alt: 'Ridge' });
    context.images.set('https://cdn.cafe.example/ridge.png', PHOTO);
    const { answer } = act({ steps: [{ op: 'image', field: 'body', alt: 'Ridge', source: { ref, image: 'ridge' }, expect: { text: '' } }] });
    expect((await answer).ok).toBe(true);
    expect(asked(context, 'stageImage')).toMatchObject([{ name: 'ridge.png', data: encodeBase64(PHOTO) }]);
  });

  it.each<{ name: string; code: string; message: RegExp; arrange(scene: Scene): Plan }>([
    {
      name: 'bytes at the address that are not what the page showed',
      code: 'invalid_request',
      message: /not what the page shows \(64×48 at its address, 640×480 on the page\)/,
      arrange: ({ context, ref }) => {
        context.page.image = () => success({ url: 'https://cdn.cafe.example/ridge.png', width: 640, height: 480, alt: '' });
        context.images.set('https://cdn.cafe.example/ridge.png', PHOTO);
        return { steps: [{ op: 'image', field: 'body', alt: '', source: { ref, image: 'ridge' } }] };
      },
    },
    {
      name: 'bytes of another shape than the page shows, even halved',
      code: 'invalid_request',
      message: /not what the page shows \(64×48 at its address, 32×30 on the page\)/,
      arrange: ({ context, ref }) => {
        context.page.image = () => success({ url: 'https://cdn.cafe.example/ridge.png', width: 32, height: 30, alt: '' });
        context.images.set('https://cdn.cafe.example/ridge.png', PHOTO);
        return { steps: [{ op: 'image', field: 'body', alt: '', source: { ref, image: 'ridge' } }] };
      },
    },
    {
      name: 'a handle of another workspace',
      code: 'invalid_handle',
      message: /another profile or workspace/,
      arrange: ({ elsewhere }) => ({ steps: [{ op: 'image', field: 'body', alt: '', source: { ref: elsewhere, image: 'ridge' } }] }),
    },
    {
      name: 'a file without the bytes the MCP server adds',
      code: 'invalid_request',
      message: /came without its bytes/,
      arrange: () => ({ steps: [{ op: 'image', field: 'body', alt: '', source: { file: '/home/me/lake.png' } }] }),
    },
    {
      name: 'an SVG sent inline',
      code: 'invalid_request',
      message: /SVG/,
      arrange: () => ({ steps: [{ op: 'image', field: 'body', alt: '', source: { data: encodeBase64(new TextEncoder().encode('<svg onload="x()"/>')) } }] }),
    },
    {
      name: 'an act with images for later',
      code: 'invalid_request',
      message: /cannot be scheduled \(at\): Tether does not keep image bytes until later/,
      arrange: () => FILE_PLAN,
    },
  ])('refused: $name; nothing asked of the person, nothing staged', async ({ code, message, arrange }) => {
    const scene = await setup();
    const plan = arrange(scene);
    const full: ActArgs = {
      profile: PROFILE,
      workspace: 'ws_test',
      handle: scene.handle,
      plan,
      ...(message.source.includes('later') ? { at: new Date(scene.context.now + 60_000).toISOString() } : {}),
    };
    const result = await actTool.handler(full, new RequestTrace('act', 'agent', full, undefined), scene.context);
    expect(result.ok ? 'ok' : result.error.code).toBe(code);
    if (!result.ok) expect(result.error.message).toMatch(message);
    // A scheduled act with images says when it was for and which steps hold images.
    if (!result.ok && message.source.includes('later')) expect(result.error.details).toMatchObject({ at: full.at, images: 1, steps: [0] });
    expect(scene.context.session.getState().approvals).toEqual({});
    expect(asked(scene.context, 'stageImage')).toHaveLength(0);
  });
});
