/**
 * The image checks, table by table and by property: every format's header read right (and as the
 * image-size package reads it), every limit refused from the header alone, and arbitrary or cut
 * bytes give a refusal with a reason, never a throw.
 */
import fc from 'fast-check';
import { imageSize } from 'image-size';
import { describe, expect, it } from 'vitest';
import { checkImageBytes, decodeBase64, encodeBase64, imageFileName, MAX_IMAGE_BYTES } from './imageBytes.ts';
import { declared, makeGif, makePng } from './testing/imageFixtures.ts';

const side = fc.integer({ min: 1, max: 16_384 });

describe('checkImageBytes', () => {
  it('reads the size of each format from its header, as image-size does', () => {
    fc.assert(
      fc.property(side, side, fc.constantFrom('png', 'jpeg', 'gif', 'webpVp8x', 'webpVp8l') as fc.Arbitrary<keyof typeof declared>, (width, height, format) => {
        fc.pre(width * height <= 100_000_000 && (format !== 'gif' || (width < 65536 && height < 65536)));
        const bytes = declared[format](width, height);
        const check = checkImageBytes(bytes);
        expect(check).toEqual({ ok: true, header: { type: format.startsWith('webp') ? 'image/webp' : `image/${format}`, width, height } });
        const oracle = imageSize(bytes);
        expect([oracle.width, oracle.height]).toEqual([width, height]);
      }),
      { numRuns: 300 },
    );
  });

  it('takes real images built pixel by pixel', () => {
    expect(checkImageBytes(makePng(3, 2))).toEqual({ ok: true, header: { type: 'image/png', width: 3, height: 2 } });
    expect(checkImageBytes(makeGif(5, 4))).toEqual({ ok: true, header: { type: 'image/gif', width: 5, height: 4 } });
  });

  it.each([
    ['over 16,384 on a side', declared.png(16_385, 10), /over 16,384 on a side.*not decoded/],
    ['over 16,384 high', declared.jpeg(10, 16_385), /over 16,384 on a side/],
    ['over 100 megapixels', declared.png(12_000, 9_000), /over 100 megapixels.*not decoded/],
    ['a WebP canvas of 2^24', declared.webpVp8x(16_777_216, 1), /over 16,384/],
    ['zero wide', declared.png(0, 10), /0×10 pixels/],
    ['a JPEG whose height comes later (DNL)', declared.jpeg(10, 0), /does not give its height/],
    ['SVG', new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), /SVG/],
    ['SVG behind an XML declaration and a BOM', new TextEncoder().encode('\uFEFF<?xml version="1.0"?>\n<svg/>'), /SVG/],
    ['HTML named .jpg', new TextEncoder().encode('<!doctype html><script>1</script>'), /not a PNG, JPEG, GIF or WebP/],
    ['a ZIP', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0]), /not a PNG/],
    ['a BMP', new Uint8Array([0x42, 0x4d, 0, 0, 0, 0]), /not a PNG/],
    ['a PNG signature alone', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), /cut short/],
    ['a JPEG without a frame', new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0, 2]), /without a frame header/],
    ['empty', new Uint8Array(), /empty/],
  ])('refuses %s, saying why', (_name, bytes, problem) => {
    const check = checkImageBytes(bytes);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.problem).toMatch(problem);
  });

  it('refuses more than 20 MB by the size alone', () => {
    const check = checkImageBytes(makePng(1, 1), MAX_IMAGE_BYTES + 1);
    expect(check).toEqual({ ok: false, problem: expect.stringMatching(/20\.0 MB, over the limit of 20\.0 MB/) });
  });

  it('arbitrary bytes, and any cut or changed byte of a real image: a refusal or a header within the limits, never a throw', () => {
    const real = [makePng(4, 4), makeGif(3, 3), declared.jpeg(640, 480, 300), declared.webpVp8l(100, 50), declared.webpVp8x(300, 200)];
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 600 }),
          fc.tuple(fc.constantFrom(...real), fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 })).map(([image, cut, at, value]) => {
            const copy = image.slice(0, cut % (image.length + 1));
            if (copy.length > 0) copy[at % copy.length] = value;
            return copy;
          }),
          fc.tuple(fc.constantFrom(...real), fc.uint8Array({ maxLength: 64 })).map(([image, tail]) => new Uint8Array([...image.subarray(0, 16), ...tail])),
        ),
        (bytes) => {
          const check = checkImageBytes(bytes);
          if (check.ok) {
            expect(check.header.width).toBeGreaterThan(0);
            expect(check.header.width).toBeLessThanOrEqual(16_384);
            expect(check.header.height).toBeLessThanOrEqual(16_384);
            expect(check.header.width * check.header.height).toBeLessThanOrEqual(100_000_000);
          } else {
            expect(check.problem.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('the size a browser decodes, not only what the first header says', () => {
  // Both seen in Chromium 156 (Debian, 2026-12-01; createImageBitmap and <img> naturalWidth): a
  // 100×100 GIF screen whose first frame is 20,000×20,000 decodes as 20,000×20,000 (GIFImageReader
  // takes the first frame's size when it is larger, or always in GIF87a; Firefox's nsGIFDecoder2
  // does the same), and libjpeg-turbo skips FF 00 as stray data where a marker is expected, then
  // finds the real frame header the length after FF 00 would have jumped over.
  const le16 = (v: number) => [v & 255, v >>> 8];
  const gif = (version: '87a' | '89a', screen: [number, number], frame: [number, number], extensions: number[] = []) =>
    new Uint8Array([
      ...Array.from(`GIF${version}`, (c) => c.charCodeAt(0)),
      ...le16(screen[0]),
      ...le16(screen[1]),
      0x80,
      0,
      0,
      ...[0, 0, 0, 255, 255, 255],
      ...extensions,
      0x2c,
      0,
      0,
      0,
      0,
      ...le16(frame[0]),
      ...le16(frame[1]),
      0,
      2,
      2,
      0x44,
      0x01,
      0,
      0x3b,
    ]);
  const comment = [0x21, 0xfe, 5, ...Array.from('hello', (c) => c.charCodeAt(0)), 3, 1, 2, 3, 0];

  it.each([
    ['a GIF89a screen of 100×100 with a first frame of 20,000×20,000', gif('89a', [100, 100], [20_000, 20_000]), /20000×20000 pixels, over 16,384/],
    ['the same behind a comment extension', gif('89a', [100, 100], [20_000, 20_000], comment), /20000×20000 pixels, over 16,384/],
    ['a GIF87a whose frame is over 100 megapixels on a small screen', gif('87a', [10, 10], [12_000, 9_000]), /over 100 megapixels/],
    ['a GIF with no image at all', new Uint8Array([...gif('89a', [100, 100], [100, 100]).subarray(0, 19), 0x3b]), /GIF/],
    ['a GIF cut short before its first image', gif('89a', [100, 100], [100, 100], comment).subarray(0, 24), /cut short/],
  ])('refuses %s', (_name, bytes, problem) => {
    const check = checkImageBytes(bytes);
    expect(check).toEqual({ ok: false, problem: expect.stringMatching(problem) });
  });

  it('takes a GIF whose frame fits its screen, at the screen’s size', () => {
    expect(checkImageBytes(gif('89a', [300, 200], [100, 50], comment))).toEqual({ ok: true, header: { type: 'image/gif', width: 300, height: 200 } });
  });

  it('a JPEG with FF 00 where a marker belongs is refused, whatever its length would skip', () => {
    // FF 00 "length" jumps over the real 20,000×20,000 frame header to a 64×64 one placed after the end.
    const real = declared.jpeg(20_000, 20_000).subarray(2);
    const small = [0xff, 0xc0, 0, 17, 8, 0, 64, 0, 64, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
    const skip = 2 + real.length;
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0x00, skip >>> 8, skip & 255, ...real, ...small]);
    expect(checkImageBytes(bytes)).toEqual({ ok: false, problem: expect.stringMatching(/JPEG whose markers are broken/) });
    // A reserved marker (FF 02–FF BF) is refused too: libjpeg stops there.
    const reserved = new Uint8Array([0xff, 0xd8, 0xff, 0x42, 0, 2, ...declared.jpeg(64, 64).subarray(2)]);
    expect(checkImageBytes(reserved)).toEqual({ ok: false, problem: expect.stringMatching(/JPEG whose markers are broken/) });
  });
});

describe('base64 and names', () => {
  it('decodes only strict base64', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(decodeBase64(encodeBase64(bytes))).toEqual(bytes);
      }),
    );
    for (const bad of ['abc', 'ab c', 'ab-_', 'a===', '%%%%', 'YQ==YQ==']) expect(decodeBase64(bad)).toBeNull();
  });

  it('gives a file name without a path, with the extension the bytes have', () => {
    expect(imageFileName('/home/me/../../etc/ridge.png', 'image/jpeg')).toBe('ridge.jpg');
    expect(imageFileName('C:\\Users\\me\\사진 1.jpeg', 'image/jpeg')).toBe('사진 1.jpg');
    expect(imageFileName('evil<script>\u0000.svg', 'image/png')).toBe('evilscript.png');
    expect(imageFileName(undefined, 'image/gif')).toBe('image.gif');
    expect(imageFileName('...', 'image/webp')).toBe('image.webp');
    expect(imageFileName('.bashrc', 'image/png')).toBe('bashrc.png');
  });
});
