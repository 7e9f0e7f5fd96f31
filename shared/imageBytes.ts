/**
 * Image bytes from outside (an agent's file, inline base64, a reference page's image) are hostile:
 * what they are is told by their magic numbers, never by a name or a MIME type, and their pixel
 * size is read from the header, before anything decodes them, so a decompression bomb (a small file
 * that declares a huge canvas) is refused without being decoded. Only PNG, JPEG, GIF and WebP are
 * taken; SVG (XML that can carry script) and everything else are refused.
 *
 * Pure and shared: the MCP server checks a file before it sends it, the service worker checks every
 * image again (it trusts no other side), and the act module once more before the bytes reach an
 * editor. Header layouts as the specifications give them, checked 2026-12-01: PNG 1.2 §4.1.1 (IHDR
 * first; width and height u32 BE at 16 and 20, zero invalid), JPEG T.81 B.1.1 (markers; SOFn =
 * C0–C3, C5–C7, C9–CB, CD–CF carries height then width, u16 BE, after the precision byte), GIF89a
 * (logical screen width and height, u16 LE at 6 and 8), WebP RIFF container (RFC 9649: VP8 frame
 * tag and start code 9D 01 2A then 14-bit sizes; VP8L signature 2F then 14-bit sizes minus one;
 * VP8X canvas sizes minus one, u24 LE at 24 and 27).
 */

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** At most this many bytes per image. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/** At most this many images in one act. */
export const MAX_IMAGES_PER_ACT = 20;
/** How long the page waits for one image's upload to finish before it takes the image back. */
export const UPLOAD_WAIT_MS = 30_000;
/** At most this many pixels on a side, and in all. */
export const MAX_IMAGE_SIDE = 16_384;
export const MAX_IMAGE_PIXELS = 100_000_000;
/** The base64 of MAX_IMAGE_BYTES (what a schema lets through before the bytes are looked at). */
export const MAX_IMAGE_BASE64 = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;

export const EXTENSION_OF: Record<ImageType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

export interface ImageHeader {
  type: ImageType;
  width: number;
  height: number;
}

export type ImageCheck = { ok: true; header: ImageHeader } | { ok: false; problem: string };

const u16be = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const u16le = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u24le = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16);
const u32be = (b: Uint8Array, at: number) => (((b[at] ?? 0) << 24) >>> 0) + (((b[at + 1] ?? 0) << 16) | ((b[at + 2] ?? 0) << 8) | (b[at + 3] ?? 0));
const u32le = (b: Uint8Array, at: number) => u16le(b, at) + u16le(b, at + 2) * 65536;

function startsWith(bytes: Uint8Array, magic: readonly number[], at = 0): boolean {
  return bytes.length >= at + magic.length && magic.every((byte, index) => bytes[at + index] === byte);
}

const ascii = (text: string) => Array.from(text, (char) => char.charCodeAt(0));

function png(b: Uint8Array): ImageHeader | string {
  // The IHDR chunk must come first, 13 bytes long.
  if (b.length < 33) return 'a PNG cut short before its header';
  if (u32be(b, 8) !== 13 || !startsWith(b, ascii('IHDR'), 12)) return 'a PNG whose first chunk is not its header (IHDR)';
  return { type: 'image/png', width: u32be(b, 16), height: u32be(b, 20) };
}

/** Frame headers: SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC). */
const isFrameMarker = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpeg(b: Uint8Array): ImageHeader | string {
  let at = 2;
  while (at < b.length) {
    if (b[at] !== 0xff) return 'a JPEG whose markers are broken';
    // Fill bytes before a marker.
    while (b[at] === 0xff && at < b.length) at += 1;
    const marker = b[at];
    at += 1;
    if (marker === undefined) break;
    // Markers without a length: TEM, RSTn, SOI, EOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) continue;
    // FF 00 is stuffed data, which libjpeg-turbo skips to look for the next marker: read as a
    // length, it would jump over the frame header the decoder then finds (a 20,000×20,000 frame
    // behind a 64×64 one, seen in Chromium 156). FF 02–FF BF are reserved: libjpeg stops there.
    if (marker < 0xc0) return 'a JPEG whose markers are broken';
    if (marker === 0xd9 || marker === 0xda) return 'a JPEG without a frame header before its image data';
    if (at + 2 > b.length) break;
    const length = u16be(b, at);
    if (length < 2) return 'a JPEG with a segment of impossible length';
    if (isFrameMarker(marker)) {
      if (at + 7 > b.length) break;
      const height = u16be(b, at + 3);
      const width = u16be(b, at + 5);
      // A height of 0 is given later (DNL): the size is not in the header.
      if (height === 0) return 'a JPEG that does not give its height in its header';
      return { type: 'image/jpeg', width, height };
    }
    at += length;
  }
  return 'a JPEG cut short before its frame header';
}

/**
 * The logical screen, grown to the first frame where that frame is larger (or is the GIF87a's
 * size): Chromium's GIFImageReader and Firefox's nsGIFDecoder2 take the first image descriptor's
 * size so, and a 100×100 screen with a 20,000×20,000 first frame decodes at 20,000×20,000
 * (Chromium 156, 2026-12-01). Later frames are clipped to that screen by both.
 */
function gif(b: Uint8Array): ImageHeader | string {
  if (b.length < 13) return 'a GIF cut short before its screen descriptor';
  let width = u16le(b, 6);
  let height = u16le(b, 8);
  const flags = b[10] ?? 0;
  let at = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
  for (;;) {
    const block = b[at];
    if (block === undefined) return 'a GIF cut short before its first image';
    if (block === 0x3b) return 'a GIF without an image';
    if (block === 0x2c) {
      if (at + 10 > b.length) return 'a GIF cut short before its first image';
      const frameWidth = u16le(b, at + 5);
      const frameHeight = u16le(b, at + 7);
      if (b[4] === 0x37) return { type: 'image/gif', width: frameWidth, height: frameHeight };
      width = Math.max(width, frameWidth);
      height = Math.max(height, frameHeight);
      return { type: 'image/gif', width, height };
    }
    if (block !== 0x21) return 'a GIF whose blocks are broken';
    // An extension: its label, then sub-blocks (a length byte, that many bytes) up to a zero length.
    at += 2;
    for (;;) {
      const length = b[at];
      if (length === undefined) return 'a GIF cut short before its first image';
      at += 1 + length;
      if (length === 0) break;
    }
  }
}

function webp(b: Uint8Array): ImageHeader | string {
  if (b.length < 30) return 'a WebP cut short before its header';
  const chunk = String.fromCharCode(...b.subarray(12, 16));
  if (chunk === 'VP8 ') {
    if (!startsWith(b, [0x9d, 0x01, 0x2a], 23)) return 'a WebP (VP8) without its start code';
    return { type: 'image/webp', width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return 'a WebP (lossless) without its signature';
    const bits = u32le(b, 21);
    return { type: 'image/webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { type: 'image/webp', width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  return 'a WebP whose first chunk is none of VP8, VP8L, VP8X';
}

/** What the bytes are by their first bytes, with a word for what they are not. */
function sniff(b: Uint8Array): ImageHeader | string {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return png(b);
  if (startsWith(b, [0xff, 0xd8, 0xff])) return jpeg(b);
  if (startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a'))) return gif(b);
  if (startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8)) return webp(b);
  const head = new TextDecoder('utf-8', { fatal: false })
    .decode(b.subarray(0, 512))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg')) || head.includes('<svg')) {
    return 'SVG, which Tether never uploads (it can carry script); send PNG, JPEG, GIF or WebP';
  }
  return 'not a PNG, JPEG, GIF or WebP image (by its first bytes, whatever its name says)';
}

/**
 * Checks image bytes: PNG, JPEG, GIF or WebP by their magic numbers, at most 20 MB, at most
 * 16,384 pixels on a side and 100 megapixels by their header. `size` is the whole length when
 * `bytes` is only its first part (the header is in the first 64 KB of any image we take, except a
 * JPEG with huge metadata before its frame, which is then refused as cut short).
 */
export function checkImageBytes(bytes: Uint8Array, size = bytes.length): ImageCheck {
  if (size === 0) return { ok: false, problem: 'empty: no bytes at all' };
  if (size > MAX_IMAGE_BYTES) return { ok: false, problem: `${formatBytes(size)}, over the limit of ${formatBytes(MAX_IMAGE_BYTES)}` };
  const found = sniff(bytes);
  if (typeof found === 'string') return { ok: false, problem: found };
  const { width, height } = found;
  if (width < 1 || height < 1) return { ok: false, problem: `an image that says it is ${width}×${height} pixels` };
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    return { ok: false, problem: `${width}×${height} pixels, over ${MAX_IMAGE_SIDE.toLocaleString('en')} on a side (its header says so; it was not decoded)` };
  }
  if (width * height > MAX_IMAGE_PIXELS) {
    return { ok: false, problem: `${width}×${height} pixels, over ${MAX_IMAGE_PIXELS / 1_000_000} megapixels (its header says so; it was not decoded)` };
  }
  return { ok: true, header: found };
}

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}

/** Base64 → bytes, strictly (no whitespace, no URL alphabet, padding right); null when it is not base64. */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | null {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
    return bytes;
  } catch {
    return null;
  }
}

export function encodeBase64(bytes: Uint8Array): string {
  let out = '';
  for (let at = 0; at < bytes.length; at += 0x8000) out += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(out);
}

/** A name safe to show and to give a File: no path, no control characters, at most 120 characters, the extension the bytes have. */
export function imageFileName(wanted: string | undefined, type: ImageType): string {
  const base = (wanted ?? '')
    .split(/[\\/]/)
    .pop()
    ?.replace(/\p{Cc}|[<>:"|?*]/gu, '')
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/^[.\s]+/, '')
    .trim()
    .slice(0, 100);
  return `${base || 'image'}.${EXTENSION_OF[type]}`;
}
