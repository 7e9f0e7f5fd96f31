// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { blobBase64 } from './blobBase64.ts';
import { encodeBase64 } from '../../shared/imageBytes.ts';
import { makePng } from '../../shared/testing/imageFixtures.ts';

describe('blobBase64', () => {
  it('gives the bytes of an image as base64, as encodeBase64 does', async () => {
    const png = makePng(64, 48, (x, y) => [x * 4, y * 5, 90]);
    expect(await blobBase64(new Blob([new Uint8Array(png)], { type: 'image/png' }))).toBe(encodeBase64(png));
  });

  it('reads every byte value, and bytes of no image type', async () => {
    const all = Uint8Array.from({ length: 256 }, (_, at) => at);
    expect(await blobBase64(new Blob([all]))).toBe(encodeBase64(all));
  });

  it('an empty Blob is no bytes', async () => {
    expect(await blobBase64(new Blob([]))).toBe('');
  });
});
