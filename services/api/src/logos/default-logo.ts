/**
 * The built-in default logo (id -1), drawn here as a PNG so the product ships no binary asset:
 * a dark blue badge with a stylised bar chart and a rising line, on a transparent background.
 */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

type Rgba = [number, number, number, number];

/** Encodes RGBA pixels (row-major) as a PNG. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => Rgba): Buffer {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 4 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), row + 1 + x * 4);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const SIZE = 128;
const NAVY: Rgba = [31, 78, 121, 255];
const WHITE: Rgba = [255, 255, 255, 255];
const GOLD: Rgba = [242, 169, 0, 255];
const CLEAR: Rgba = [0, 0, 0, 0];

function insideRoundedSquare(x: number, y: number, radius: number): boolean {
  const cx = Math.min(Math.max(x, radius), SIZE - 1 - radius);
  const cy = Math.min(Math.max(y, radius), SIZE - 1 - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

const BARS = [
  { from: 28, to: 44, top: 76 },
  { from: 52, to: 68, top: 58 },
  { from: 76, to: 92, top: 40 },
];

function distanceToSegment(x: number, y: number, a: [number, number], b: [number, number]): number {
  const [ax, ay] = a;
  const [bx, by] = b;
  const t = Math.max(
    0,
    Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)),
  );
  return Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay)));
}

export function drawDefaultLogo(): Buffer {
  return encodePng(SIZE, SIZE, (x, y) => {
    if (!insideRoundedSquare(x, y, 22)) return CLEAR;
    if (distanceToSegment(x, y, [24, 70], [100, 26]) < 3.5) return GOLD;
    if (y >= 96 && y <= 100 && x >= 22 && x <= 106) return WHITE;
    if (BARS.some((bar) => x >= bar.from && x <= bar.to && y >= bar.top && y < 96)) return WHITE;
    return NAVY;
  });
}

export const DEFAULT_LOGO_FILE = 'default-logo.png';
