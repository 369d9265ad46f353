import { describe, expect, it } from 'vitest';
import { readIsStill } from './still-image.ts';

/** A PNG's signature and chunks (lengths and types only: the checks read no more). */
function png(...chunks: Array<[type: string, length: number]>): File {
  const parts: number[] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  for (const [type, length] of chunks) {
    parts.push((length >>> 24) & 255, (length >>> 16) & 255, (length >>> 8) & 255, length & 255);
    parts.push(...[...type].map((character) => character.charCodeAt(0)));
    parts.push(...new Array<number>(length + 4).fill(0));
  }
  return new File([Uint8Array.from(parts)], 'picture.png', { type: 'image/png' });
}

describe('readIsStill', () => {
  it('takes a JPEG and a PNG without animation control for stills', async () => {
    expect(await readIsStill(new File(['jpeg'], 'photo.jpg', { type: 'image/jpeg' }))).toBe(true);
    expect(await readIsStill(png(['IHDR', 13], ['tEXt', 20], ['IDAT', 30]))).toBe(true);
  });

  it('does not take an APNG, a GIF, or a file that only says it is a PNG for a still', async () => {
    expect(await readIsStill(png(['IHDR', 13], ['acTL', 8], ['IDAT', 30]))).toBe(false);
    expect(await readIsStill(new File(['GIF89a'], 'a.gif', { type: 'image/gif' }))).toBe(false);
    expect(await readIsStill(new File(['not a png'], 'b.png', { type: 'image/png' }))).toBe(false);
  });
});
