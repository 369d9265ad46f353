import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import type { SharpOptions } from 'sharp';
import { describe, expect, it } from 'vitest';
import { stripMetadata } from './strip-metadata.ts';

const secret = 'Secret Street 7, 51.5N 0.1W';
const exif = { IFD0: { Copyright: secret, ImageDescription: secret, Artist: secret } };

/** A small two-frame animation: what is left must still play the same. */
async function makeAnimation(format: 'gif' | 'webp', withExif = false) {
  const frames = [
    { r: 255, g: 0, b: 0, alpha: 1 },
    { r: 0, g: 0, b: 255, alpha: 1 },
  ];
  const strip = await sharp({
    create: { width: 16, height: 32, channels: 4, background: frames[0]! },
  })
    .composite([
      {
        input: { create: { width: 16, height: 16, channels: 4, background: frames[1]! } },
        top: 16,
        left: 0,
      },
    ])
    .png()
    .toBuffer();
  const animated = sharp(await sharp(strip).raw().toBuffer(), {
    raw: { width: 16, height: 32, channels: 4, pageHeight: 16 },
  } as SharpOptions);
  const image = withExif ? animated.withExif(exif) : animated;
  return image.toFormat(format, { loop: 0, delay: [100, 100] }).toBuffer();
}

/** Inserts a GIF block after the header and global colour table. */
function insertGifBlock(gif: Buffer, block: Buffer): Buffer {
  const packed = gif[10]!;
  const headerEnd = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);
  return Buffer.concat([gif.subarray(0, headerEnd), block, gif.subarray(headerEnd)]);
}

function gifSubBlocks(text: string): Buffer {
  const data = Buffer.from(text, 'latin1');
  const blocks: Buffer[] = [];
  for (let at = 0; at < data.length; at += 255) {
    const part = data.subarray(at, at + 255);
    blocks.push(Buffer.from([part.length]), part);
  }
  return Buffer.concat([...blocks, Buffer.from([0])]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

async function expectSamePicture(before: Buffer, after: Buffer) {
  const [a, b] = await Promise.all(
    [before, after].map((bytes) =>
      sharp(bytes, { pages: -1 }).raw().toBuffer({ resolveWithObject: true }),
    ),
  );
  expect(b!.info).toMatchObject({ width: a!.info.width, height: a!.info.height });
  expect(b!.data.equals(a!.data)).toBe(true);
}

describe('stripMetadata', () => {
  it('drops GIF comments and foreign application blocks, keeps the looping and every frame', async () => {
    const gif = await makeAnimation('gif');
    const tainted = insertGifBlock(
      insertGifBlock(gif, Buffer.concat([Buffer.from([0x21, 0xfe]), gifSubBlocks(secret)])),
      Buffer.concat([
        Buffer.from([0x21, 0xff, 11]),
        Buffer.from('XMP DataXMP', 'latin1'),
        gifSubBlocks(`<x:xmpmeta>${secret}</x:xmpmeta>`),
      ]),
    );
    const withJunk = Buffer.concat([tainted, Buffer.from(`trailing ${secret}`)]);
    expect(withJunk.includes(secret)).toBe(true);

    const clean = stripMetadata(withJunk);
    expect(clean.includes(secret)).toBe(false);
    expect(clean.includes(Buffer.from('NETSCAPE2.0'))).toBe(true);
    expect(clean.length).toBe(gif.length);
    await expectSamePicture(gif, clean);
    expect((await sharp(clean).metadata()).pages).toBe(2);
  });

  it('drops PNG text, EXIF and time chunks', async () => {
    const png = await sharp({
      create: { width: 8, height: 8, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const iend = png.length - 12;
    const tainted = Buffer.concat([
      png.subarray(0, 33),
      pngChunk('tEXt', Buffer.from(`Comment\0${secret}`, 'latin1')),
      pngChunk('iTXt', Buffer.from(`XML:com.adobe.xmp\0\0\0\0\0${secret}`, 'latin1')),
      pngChunk('tIME', Buffer.from([7, 234, 1, 1, 0, 0, 0])),
      png.subarray(33, iend),
      png.subarray(iend),
    ]);
    const clean = stripMetadata(tainted);
    expect(clean.includes(secret)).toBe(false);
    expect(clean.includes(Buffer.from('tIME'))).toBe(false);
    await expectSamePicture(png, clean);
  });

  it('drops JPEG EXIF (with GPS) and comments, keeps the picture', async () => {
    const jpeg = await sharp({
      create: { width: 16, height: 16, channels: 3, background: { r: 200, g: 100, b: 50 } },
    })
      .withExif(exif)
      .jpeg()
      .toBuffer();
    expect(jpeg.includes(secret)).toBe(true);
    const clean = stripMetadata(jpeg);
    expect(clean.includes(secret)).toBe(false);
    expect(clean.includes(Buffer.from('Exif\0'))).toBe(false);
    expect((await sharp(clean).metadata()).exif).toBeUndefined();
    await expectSamePicture(jpeg, clean);
  });

  it('drops animated WebP EXIF and XMP, and says so in its header flags', async () => {
    const webp = await makeAnimation('webp', true);
    expect(webp.includes(secret)).toBe(true);
    const clean = stripMetadata(webp);
    expect(clean.includes(secret)).toBe(false);
    expect(clean.readUInt32LE(4)).toBe(clean.length - 8);
    const metadata = await sharp(clean).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(metadata.pages).toBe(2);
    await expectSamePicture(webp, clean);
  });

  it('gives back what it cannot follow unchanged', () => {
    const html = Buffer.from('<!doctype html><script>alert(1)</script>');
    expect(stripMetadata(html)).toBe(html);
    const brokenPng = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from([0, 0, 255, 255]),
    ]);
    expect(stripMetadata(brokenPng)).toBe(brokenPng);
  });
});
