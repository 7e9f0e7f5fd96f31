/**
 * Image bytes for tests: real, decodable images (a PNG and a GIF built here, pixel by pixel, with
 * their checksums) and headers that only declare a size (for the parser and the limits). Node and
 * browsers alike: no Buffer.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

const be32 = (value: number) => [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];

function concat(parts: ArrayLike<number>[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const typed = concat([Array.from(type, (char) => char.charCodeAt(0)), data]);
  return concat([be32(data.length), typed, be32(crc32(typed))]);
}

/** zlib with stored (uncompressed) blocks: valid for any decoder, no compressor needed. */
function zlibStored(data: Uint8Array): Uint8Array {
  const parts: ArrayLike<number>[] = [[0x78, 0x01]];
  for (let at = 0; at < data.length || at === 0; at += 65535) {
    const block = data.subarray(at, at + 65535);
    const last = at + 65535 >= data.length ? 1 : 0;
    parts.push([last, block.length & 255, block.length >>> 8, ~block.length & 255, (~block.length >>> 8) & 255], block);
    if (data.length === 0) break;
  }
  parts.push(be32(adler32(data)));
  return concat(parts);
}

/**
 * A real PNG (RGB, 8 bits) of width × height, each pixel from `color(x, y)`; `padding` bytes of an
 * ancillary chunk make it as large as a test needs (a 2 MB photo).
 */
export function makePng(
  width: number,
  height: number,
  color: (x: number, y: number) => [number, number, number] = () => [200, 120, 40],
  padding = 0,
): Uint8Array {
  const raw = new Uint8Array(height * (width * 3 + 1));
  for (let y = 0; y < height; y += 1) {
    raw[y * (width * 3 + 1)] = 0;
    for (let x = 0; x < width; x += 1) {
      const [r, g, b] = color(x, y);
      const at = y * (width * 3 + 1) + 1 + x * 3;
      raw[at] = r;
      raw[at + 1] = g;
      raw[at + 2] = b;
    }
  }
  const ihdr = new Uint8Array([...be32(width), ...be32(height), 8, 2, 0, 0, 0]);
  const extra = padding > 0 ? [chunk('tEXt', concat([Array.from('Comment\0', (c) => c.charCodeAt(0)), new Uint8Array(padding).fill(0x41)]))] : [];
  return concat([
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    chunk('IHDR', ihdr),
    ...extra,
    chunk('IDAT', zlibStored(raw)),
    chunk('IEND', new Uint8Array()),
  ]);
}

/** A real one-colour GIF89a of width × height (uncompressed LZW: a clear code before every pixel run). */
export function makeGif(width: number, height: number): Uint8Array {
  const pixels = width * height;
  // 2-colour palette, min code size 2: codes are 3 bits; emit CLEAR(4) then pixel 0 repeatedly, clearing every few codes.
  const codes: number[] = [4];
  for (let i = 0; i < pixels; i += 1) {
    codes.push(0);
    if (i % 2 === 1) codes.push(4);
  }
  codes.push(5);
  const data: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const code of codes) {
    acc |= code << bits;
    bits += 3;
    while (bits >= 8) {
      data.push(acc & 255);
      acc >>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) data.push(acc & 255);
  const blocks: number[] = [];
  for (let at = 0; at < data.length; at += 255) {
    const part = data.slice(at, at + 255);
    blocks.push(part.length, ...part);
  }
  const le16 = (v: number) => [v & 255, v >>> 8];
  return new Uint8Array([
    ...Array.from('GIF89a', (c) => c.charCodeAt(0)),
    ...le16(width),
    ...le16(height),
    0x80,
    0,
    0,
    30,
    144,
    255,
    255,
    255,
    255,
    0x2c,
    0,
    0,
    0,
    0,
    ...le16(width),
    ...le16(height),
    0,
    2,
    ...blocks,
    0,
    0x3b,
  ]);
}

/** Headers that declare a size and hold nothing else (the parser reads only the header). */
export const declared = {
  png(width: number, height: number): Uint8Array {
    return concat([[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], chunk('IHDR', new Uint8Array([...be32(width), ...be32(height), 8, 2, 0, 0, 0]))]);
  },
  jpeg(width: number, height: number, app = 16): Uint8Array {
    const app0 = [0xff, 0xe0, (app + 2) >>> 8, (app + 2) & 255, ...new Array<number>(app).fill(0)];
    const sof = [0xff, 0xc0, 0, 17, 8, height >>> 8, height & 255, width >>> 8, width & 255, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
    return new Uint8Array([0xff, 0xd8, ...app0, ...sof, 0xff, 0xda, 0, 2, 0xff, 0xd9]);
  },
  gif(width: number, height: number): Uint8Array {
    // The screen, then the first frame's image descriptor at the same size (what a decoder sizes it by).
    const size = [width & 255, width >>> 8, height & 255, height >>> 8];
    return new Uint8Array([...Array.from('GIF89a', (c) => c.charCodeAt(0)), ...size, 0, 0, 0, 0x2c, 0, 0, 0, 0, ...size, 0]);
  },
  webpVp8x(width: number, height: number): Uint8Array {
    const w = width - 1;
    const h = height - 1;
    return new Uint8Array([
      ...Array.from('RIFF', (c) => c.charCodeAt(0)),
      22,
      0,
      0,
      0,
      ...Array.from('WEBPVP8X', (c) => c.charCodeAt(0)),
      10,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      w & 255,
      (w >>> 8) & 255,
      (w >>> 16) & 255,
      h & 255,
      (h >>> 8) & 255,
      (h >>> 16) & 255,
    ]);
  },
  webpVp8l(width: number, height: number): Uint8Array {
    const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
    return new Uint8Array([
      ...Array.from('RIFF', (c) => c.charCodeAt(0)),
      26,
      0,
      0,
      0,
      ...Array.from('WEBPVP8L', (c) => c.charCodeAt(0)),
      5,
      0,
      0,
      0,
      0x2f,
      bits & 255,
      (bits >>> 8) & 255,
      (bits >>> 16) & 255,
      (bits >>> 24) & 255,
      0,
      0,
      0,
      0,
      0,
    ]);
  },
};
