import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import sharp from 'sharp';
import type { SharpOptions } from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  makeMetadataCorpus,
  makeUnfollowableFiles,
  PLANTED_MARK,
} from '../../test-support/metadata-corpus.ts';
import { readFuzzSettings } from '../../test-support/fuzz.ts';
import { stripMetadata } from './strip-metadata.ts';

/** The cleaned bytes; fails the test when the file was refused. */
function clean(bytes: Buffer): Buffer {
  const outcome = stripMetadata(bytes);
  if (!outcome.ok) throw new Error(`refused: ${outcome.reason}`);
  return outcome.bytes;
}

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

/** Inserts a GIF block after the header and global color table. */
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

    const cleaned = clean(withJunk);
    expect(cleaned.includes(secret)).toBe(false);
    expect(cleaned.includes(Buffer.from('NETSCAPE2.0'))).toBe(true);
    expect(cleaned.length).toBe(gif.length);
    await expectSamePicture(gif, cleaned);
    expect((await sharp(cleaned).metadata()).pages).toBe(2);
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
    const cleaned = clean(tainted);
    expect(cleaned.includes(secret)).toBe(false);
    expect(cleaned.includes(Buffer.from('tIME'))).toBe(false);
    await expectSamePicture(png, cleaned);
  });

  it('drops JPEG EXIF (with GPS) and comments, keeps the picture', async () => {
    const jpeg = await sharp({
      create: { width: 16, height: 16, channels: 3, background: { r: 200, g: 100, b: 50 } },
    })
      .withExif(exif)
      .jpeg()
      .toBuffer();
    expect(jpeg.includes(secret)).toBe(true);
    const cleaned = clean(jpeg);
    expect(cleaned.includes(secret)).toBe(false);
    expect(cleaned.includes(Buffer.from('Exif\0'))).toBe(false);
    expect((await sharp(cleaned).metadata()).exif).toBeUndefined();
    await expectSamePicture(jpeg, cleaned);
  });

  it('drops animated WebP EXIF and XMP, and says so in its header flags', async () => {
    const webp = await makeAnimation('webp', true);
    expect(webp.includes(secret)).toBe(true);
    const cleaned = clean(webp);
    expect(cleaned.includes(secret)).toBe(false);
    expect(cleaned.readUInt32LE(4)).toBe(cleaned.length - 8);
    const metadata = await sharp(cleaned).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(metadata.pages).toBe(2);
    await expectSamePicture(webp, cleaned);
  });

  it('refuses what it cannot follow, with the reason, rather than keep it as sent', async () => {
    const html = Buffer.from('<!doctype html><script>alert(1)</script>');
    expect(stripMetadata(html)).toEqual({
      ok: false,
      reason: 'it is not a GIF, WebP, PNG or JPEG image',
    });
    const brokenPng = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from([0, 0, 255, 255]),
    ]);
    expect(stripMetadata(brokenPng)).toMatchObject({ ok: false, reason: expect.any(String) });
    for (const file of await makeUnfollowableFiles(3)) {
      expect(stripMetadata(file.bytes), file.name).toEqual({
        ok: false,
        reason: expect.stringMatching(file.reason),
      });
    }
  });

  it('keeps the whole frames of a GIF cut short, and nothing after them', async () => {
    const gif = await makeAnimation('gif');
    const cut = Buffer.concat([gif.subarray(0, gif.length - 10), Buffer.from(secret)]);
    const cleaned = clean(cut);
    expect(cleaned.includes(secret)).toBe(false);
    expect(cleaned[cleaned.length - 1]).toBe(0x3b);
    expect((await sharp(cleaned).metadata()).pages).toBe(1);
    // Cut before its first frame: what is left has no frame, and the decoder refuses it.
    const firstFrame = gif.indexOf(Buffer.from([0x21, 0xf9]));
    const headerOnly = clean(
      Buffer.concat([gif.subarray(0, firstFrame + 12), Buffer.from(secret)]),
    );
    expect(headerOnly.includes(secret)).toBe(false);
    await expect(sharp(headerOnly).metadata()).rejects.toThrow();
  });

  it('refuses a PNG whose kept chunk fails its checksum', async () => {
    const png = await sharp({
      create: { width: 4, height: 4, channels: 3, background: { r: 9, g: 9, b: 9 } },
    })
      .png()
      .toBuffer();
    const damaged = Buffer.from(png);
    damaged[damaged.length - 20] = damaged[damaged.length - 20]! ^ 0xff; // a byte of IDAT: its checksum no longer matches
    expect(stripMetadata(damaged)).toEqual({
      ok: false,
      reason: 'the PNG is damaged: its IDAT chunk fails its checksum',
    });
  });

  it('leaves no planted string in any file of the crafted corpus, and shows each the same', async () => {
    for (const file of await makeMetadataCorpus(4)) {
      expect(file.bytes.includes(PLANTED_MARK), file.name).toBe(true);
      const cleaned = clean(file.bytes);
      expect(cleaned.includes(PLANTED_MARK), file.name).toBe(false);
      // Cleaning what is clean changes nothing: uploads clean at once, imports again.
      expect(clean(cleaned).equals(cleaned), file.name).toBe(true);
      const metadata = await sharp(cleaned, { animated: true }).metadata();
      const { width, height, frames, loop } = file.expected;
      expect(
        [metadata.autoOrient.width, metadata.pageHeight ?? metadata.autoOrient.height],
        file.name,
      ).toEqual([width, height]);
      expect(metadata.pages ?? 1, file.name).toBe(frames);
      if (loop !== undefined) expect(metadata.loop, file.name).toBe(loop);
      expect(metadata.xmp, file.name).toBeUndefined();
      expect(metadata.iptc, file.name).toBeUndefined();
      expect(metadata.comments, file.name).toBeUndefined();
      const before = await sharp(file.picture, { pages: -1 }).raw().toBuffer();
      const after = await sharp(cleaned, { pages: -1 }).raw().toBuffer();
      expect(after.equals(before), file.name).toBe(true);
    }
  });

  it('keeps a sideways photo upright by its orientation alone', async () => {
    const jpeg = await sharp({
      create: { width: 30, height: 10, channels: 3, background: { r: 9, g: 99, b: 199 } },
    })
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Artist: secret } })
      .jpeg()
      .toBuffer();
    const cleaned = clean(jpeg);
    expect(cleaned.includes(secret)).toBe(false);
    const metadata = await sharp(cleaned).metadata();
    expect(metadata.orientation).toBe(6);
    expect(metadata.autoOrient).toEqual({ width: 10, height: 30 });
  });

  it('answers every damaged variant of the corpus with bytes or a reason, never an exception', async () => {
    const corpus = await makeMetadataCorpus(5);
    const fuzz = readFuzzSettings('strip-metadata damage');
    fc.assert(
      fc.property(
        fc.nat(corpus.length - 1),
        fc.array(fc.tuple(fc.nat(), fc.nat(255)), { maxLength: 8 }),
        fc.nat(),
        (index, flips, cut) => {
          const bytes = Buffer.from(corpus[index]!.bytes);
          for (const [at, value] of flips) bytes[at % bytes.length] = value;
          const damaged = bytes.subarray(0, bytes.length - (cut % 64));
          const outcome = stripMetadata(damaged);
          if (!outcome.ok) {
            expect(outcome.reason).toMatch(/^(the|it) /);
            return;
          }
          // What is kept is whole: cleaning it again changes nothing.
          const again = stripMetadata(outcome.bytes);
          expect(again.ok && again.bytes.equals(outcome.bytes)).toBe(true);
        },
      ),
      { numRuns: fuzz.runs * 20, seed: fuzz.seed },
    );
  });
});
