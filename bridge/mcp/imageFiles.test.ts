/**
 * The MCP server reads an agent's image file as its user and refuses, naming the path and the
 * problem, everything that is not that user's regular image file within the limits: folders,
 * FIFOs (without blocking), devices, sockets, relative paths, URLs, another user's file (through a
 * symbolic link too), files over 20 MB, SVG and bytes that are not an image whatever their name.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'node:fs/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { decodeBase64 } from '../../shared/imageBytes.ts';
import type { Plan } from '../../shared/agent/planSchema.ts';
import { declared, makePng } from '../../shared/testing/imageFixtures.ts';
import { attachImageFiles, readImageFile } from './imageFiles.ts';

// Every open is seen: a path that is not a regular file must be refused without being opened
// (opening a FIFO lets a writer blocked on it go on; opening a serial device resets the board on it).
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return { ...real, open: vi.fn(real.open) };
});
const opened = () => vi.mocked(open).mock.calls.map(([path]) => String(path));

const dir = mkdtempSync(join(tmpdir(), 'tether-images-'));
const me = { uid: process.getuid?.(), platform: process.platform };
const png = makePng(8, 6);
writeFileSync(join(dir, 'ridge.png'), png);
writeFileSync(join(dir, 'named.jpg'), new TextEncoder().encode('<!doctype html><p>not a photo</p>'));
writeFileSync(join(dir, 'vector.svg'), '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
writeFileSync(join(dir, 'bomb.png'), declared.png(60_000, 60_000));
writeFileSync(join(dir, 'unreadable.png'), png);
chmodSync(join(dir, 'unreadable.png'), 0o000);
execFileSync('truncate', ['-s', String(20 * 1024 * 1024 + 1), join(dir, 'huge.png')]);
execFileSync('mkfifo', [join(dir, 'pipe.png')]);
symlinkSync(join(dir, 'ridge.png'), join(dir, 'link.png'));
const socketPath = join(dir, 'socket.png');
const socketServer = createServer().listen(socketPath);
afterAll(() => socketServer.close());

describe('readImageFile', () => {
  it('reads the user’s own image file', async () => {
    const read = await readImageFile(join(dir, 'ridge.png'), me);
    expect(read.ok).toBe(true);
    if (read.ok) expect(decodeBase64(read.data)).toEqual(png);
  });

  it('follows a symbolic link to the user’s own file', async () => {
    expect((await readImageFile(join(dir, 'link.png'), me)).ok).toBe(true);
  });

  it.each([
    ['relative', 'photos/ridge.png', /not an absolute path/],
    ['a file: URL', 'file:///tmp/ridge.png', /URL/],
    ['missing', '/no/such/dir/ridge.png', /no such file/],
  ])('refuses a path that is %s', async (_what, path, problem) => {
    expect(await readImageFile(path, me)).toEqual({ ok: false, problem: expect.stringMatching(problem) });
  });

  it.each([
    ['a folder', '.', /folder/],
    ['a FIFO (without waiting for a writer)', 'pipe.png', /FIFO/],
    ['a socket', 'socket.png', /socket/],
    ['over 20 MB', 'huge.png', /over the limit of 20\.0 MB/],
    ['HTML named .jpg', 'named.jpg', /not a PNG, JPEG, GIF or WebP/],
    ['SVG', 'vector.svg', /SVG/],
    ['a decompression bomb (refused from its header)', 'bomb.png', /over 16,384 on a side/],
  ])('refuses %s', async (_what, name, problem) => {
    expect(await readImageFile(join(dir, name), me)).toEqual({ ok: false, problem: expect.stringMatching(problem) });
  });

  it('refuses a device', async () => {
    expect(await readImageFile('/dev/zero', me)).toEqual({ ok: false, problem: expect.stringMatching(/device/) });
  });

  it('never opens what is not a regular file: a FIFO, a device, a socket, a folder', async () => {
    vi.mocked(open).mockClear();
    for (const path of [join(dir, 'pipe.png'), '/dev/zero', '/dev/tty', join(dir, 'socket.png'), dir]) {
      expect((await readImageFile(path, me)).ok).toBe(false);
    }
    expect(opened()).toEqual([]);
    // A regular file is opened, once.
    expect((await readImageFile(join(dir, 'ridge.png'), me)).ok).toBe(true);
    expect(opened()).toEqual([join(dir, 'ridge.png')]);
  });

  it('refuses a file that cannot be read', async () => {
    // As root, permissions do not stop the read: then the check is that it went through as the user.
    const read = await readImageFile(join(dir, 'unreadable.png'), me);
    if (me.uid === 0) expect(read.ok).toBe(true);
    else expect(read).toEqual({ ok: false, problem: expect.stringMatching(/permission denied/) });
  });

  it('refuses another user’s file, through a link too', async () => {
    const other = { uid: (me.uid ?? 0) + 4242, platform: me.platform };
    expect(await readImageFile(join(dir, 'ridge.png'), other)).toEqual({ ok: false, problem: expect.stringMatching(/belongs to another user/) });
    expect(await readImageFile(join(dir, 'link.png'), other)).toEqual({ ok: false, problem: expect.stringMatching(/belongs to another user/) });
    // A real file of another user on this machine: /etc/passwd belongs to root.
    if (me.uid !== 0) expect(await readImageFile('/etc/passwd', me)).toEqual({ ok: false, problem: expect.stringMatching(/another user/) });
  });
});

describe('attachImageFiles', () => {
  const plan = (source: Record<string, unknown>): Plan => ({ steps: [{ op: 'image', field: 'body', source, alt: 'Ridge' }] }) as Plan;

  it('replaces each path with its bytes', async () => {
    const attached = await attachImageFiles(plan({ file: join(dir, 'ridge.png') }), me);
    expect(attached.ok).toBe(true);
    if (attached.ok) expect(attached.value.steps[0]).toMatchObject({ source: { file: join(dir, 'ridge.png'), data: expect.any(String) } });
  });

  it('refuses every bad image at once, naming each path and its problem, and bytes an agent put beside a path', async () => {
    const attached = await attachImageFiles(
      {
        steps: [
          { op: 'image', field: 'body', source: { file: join(dir, 'pipe.png') }, alt: '' },
          { op: 'image', field: 'body', source: { file: join(dir, 'ridge.png'), data: 'AAAA' }, alt: '' },
          { op: 'image', field: 'body', source: { data: 'PHN2Zz4=', name: 'x.png' }, alt: '' },
          { op: 'fill', field: 'body', text: '![a](image:b)', format: 'markdown', images: { b: { file: 'relative.png' } } },
        ],
      },
      me,
    );
    expect(attached.ok).toBe(false);
    if (attached.ok) return;
    expect(attached.error.code).toBe('invalid_request');
    expect(attached.error.details?.problems).toEqual([
      { step: 0, code: 'invalid_request', message: expect.stringMatching(/pipe\.png cannot be sent: it is a FIFO/) },
      { step: 1, code: 'invalid_request', message: expect.stringMatching(/by its path only/) },
      { step: 2, code: 'invalid_request', message: expect.stringMatching(/inline image x\.png cannot be sent: SVG/) },
      { step: 3, code: 'invalid_request', message: expect.stringMatching(/relative\.png cannot be sent: it is not an absolute path/) },
    ]);
  });

  it('refuses more than 20 images in one act', async () => {
    const steps = Array.from({ length: 21 }, () => ({ op: 'image', field: 'body', source: { file: join(dir, 'ridge.png') }, alt: '' }));
    const attached = await attachImageFiles({ steps } as Plan, me);
    expect(attached.ok).toBe(false);
    if (!attached.ok) expect(JSON.stringify(attached.error.details)).toMatch(/21 images in one act; at most 20/);
  });
});
