import { createCanvas, loadImage } from '@napi-rs/canvas';
import { encodeOpaquePng } from '../../../src/render/encodePng.js';

/** Opaque pixels with every channel varying, so a swapped channel or a shifted row shows. */
function pattern(width: number, height: number): Uint8Array {
  const pixels = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      pixels.set([(x * 7) % 256, (y * 13) % 256, (x * y) % 256, 255], i);
    }
  }
  return pixels;
}

describe('encodeOpaquePng', () => {
  it('writes a PNG that an independent decoder reads back pixel for pixel', async () => {
    const [width, height] = [37, 23];
    const pixels = pattern(width, height);
    const png = encodeOpaquePng(pixels, width, height);
    const image = await loadImage(png);
    expect([image.width, image.height]).toEqual([width, height]);
    const canvas = createCanvas(width, height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(image, 0, 0);
    expect(Buffer.from(ctx.getImageData(0, 0, width, height).data).equals(Buffer.from(pixels))).toBe(true);
  });

  it('reads back right after encoding a larger image and before a larger one (the row buffer is reused)', async () => {
    for (const [width, height] of [
      [64, 48],
      [17, 5],
      [80, 61],
    ] as const) {
      const pixels = pattern(width, height);
      const image = await loadImage(encodeOpaquePng(pixels, width, height));
      const canvas = createCanvas(width, height);
      const ctx = canvas.getContext('2d');
      ctx.drawImage(image, 0, 0);
      expect(Buffer.from(ctx.getImageData(0, 0, width, height).data).equals(Buffer.from(pixels))).toBe(true);
    }
  });

  it('refuses pixels that do not match the size', () => {
    expect(() => encodeOpaquePng(new Uint8Array(10), 2, 2)).toThrow('is not 2×2 RGBA pixels');
  });
});
