/**
 * PNG encoding of opaque RGBA pixels with Node's zlib. Skia's own encoder has no compression level
 * and is most of a render's time; zlib at level 1 with no row filter is 2–3× faster on flat chart
 * graphics for a few percent more bytes (docs/benchmarks.md). It compresses in the calling thread:
 * about 3 ms for a digest chart, less than the hop to libuv's thread pool costs when the pool is
 * busy (charts are drawn in a process of their own in the bot). Correct only for
 * pixels that are all opaque (charts paint a white background first): then the premultiplied
 * pixels the canvas holds are the straight-alpha pixels PNG wants.
 *
 * Measured and not kept (docs/benchmarks.md): `Z_RLE` (no faster here, files 1.5× larger),
 * `Z_HUFFMAN_ONLY` (4× slower: a byte costs at least a bit), RGB instead of RGBA (dropping alpha
 * in JS costs more than the smaller input saves), the Up filter (slower to build, larger files).
 */
import * as zlib from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** zlib level for chart PNGs: 1 is the fastest, and chart graphics compress well at it. */
export const PNG_COMPRESSION_LEVEL = 1;

/** zlib's output chunk: one chunk holds a digest chart's ~100 KiB, so nothing is joined. */
const DEFLATE_CHUNK = 256 * 1024;

/**
 * The filtered rows, reused from one encoding to the next: a new 3 MB buffer per chart costs
 * more in page faults and zeroing (about 2 ms) than copying the rows into it. Encoding is
 * synchronous, so no two encodings share it at once. It grows to the largest chart drawn.
 */
let scratch: Buffer | undefined;

let crcTable: Int32Array | undefined;

/** CRC-32 (ISO 3309) as PNG chunks need it, continuing from `crc`; zlib.crc32 where Node has it (20.15+). */
function crc32(data: Buffer, crc = 0): number {
  const native = (zlib as { crc32?: (d: Buffer, value?: number) => number }).crc32;
  if (native) return native(data, crc);
  crcTable ??= Int32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c;
  });
  let c = crc ^ -1;
  for (const byte of data) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** Writes a chunk (length, type, data, CRC of type and data) at `at`; returns where it ends. */
function writeChunk(out: Buffer, at: number, type: string, data: Buffer): number {
  out.writeUInt32BE(data.length, at);
  out.write(type, at + 4, 'latin1');
  data.copy(out, at + 8);
  out.writeUInt32BE(crc32(data, crc32(out.subarray(at + 4, at + 8))), at + 8 + data.length);
  return at + 12 + data.length;
}

/**
 * An RGBA PNG of `width × height` opaque pixels (4 bytes each, rows top to bottom).
 *
 * @example const png = encodeOpaquePng(canvas.data(), canvas.width, canvas.height);
 */
export function encodeOpaquePng(pixels: Uint8Array, width: number, height: number): Buffer {
  const stride = width * 4;
  if (pixels.length !== stride * height) {
    throw new Error(`PNG encoding: ${pixels.length} bytes is not ${width}×${height} RGBA pixels`);
  }
  // Each row starts with its filter type: 0, none.
  const size = (stride + 1) * height;
  if (!scratch || scratch.length < size) scratch = Buffer.allocUnsafe(size);
  const raw = scratch.subarray(0, size);
  const source = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.length);
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = 0;
    source.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  const idat = zlib.deflateSync(raw, { level: PNG_COMPRESSION_LEVEL, chunkSize: DEFLATE_CHUNK });
  const png = Buffer.allocUnsafe(SIGNATURE.length + 12 + header.length + 12 + idat.length + 12);
  SIGNATURE.copy(png, 0);
  let at = writeChunk(png, SIGNATURE.length, 'IHDR', header);
  at = writeChunk(png, at, 'IDAT', idat);
  writeChunk(png, at, 'IEND', Buffer.alloc(0));
  return png;
}
