// Draws Tether's toolbar icon (a tether knot: two linked rings) as PNGs, without image libraries.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

function crc32(buffer) {
  let crc = ~0;
  for (const byte of buffer) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(size, pixel) {
  const rows = [];
  for (let y = 0; y < size; y += 1) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x += 1) row.set(pixel(x + 0.5, y + 0.5, size), 1 + x * 4);
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function icon(x, y, size) {
  const u = x / size;
  const v = y / size;
  const corner = 0.22;
  const dx = Math.max(corner - u, u - (1 - corner), 0);
  const dy = Math.max(corner - v, v - (1 - corner), 0);
  if (Math.hypot(dx, dy) > corner) return [0, 0, 0, 0];
  const ring = (cx, cy) => Math.abs(Math.hypot(u - cx, v - cy) - 0.2) < 0.055;
  if (ring(0.38, 0.5) || ring(0.62, 0.5)) return [255, 255, 255, 255];
  return [29, 78, 216, 255];
}

for (const size of [16, 48, 128]) writeFileSync(`extension/icons/icon-${size}.png`, png(size, icon));
