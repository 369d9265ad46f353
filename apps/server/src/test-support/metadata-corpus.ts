import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import type { Sharp } from 'sharp';
import { makeAnimation } from './media.ts';

/**
 * Files that carry what their maker did not mean to publish where a careless cleaner would
 * leave it (docs/uploads.md, "Cleaned originals"): each holds planted strings that start with
 * PLANTED_MARK, so a scan of what was stored finds any that survived. Made here, small, with
 * sharp and by assembling bytes; `seed` makes other bytes (uploads are deduplicated).
 */
export const PLANTED_MARK = 'PLANTED';

export interface CorpusFile {
  name: string;
  bytes: Buffer;
  /** The picture as made, before anything was planted around it: the pixels to compare. */
  picture: Buffer;
  /** What the picture is once shown: upright size, frames, GIF loop count. */
  expected: { width: number; height: number; frames: number; loop?: number };
}

export interface RefusedFile {
  name: string;
  bytes: Buffer;
  /** Words the refusal's reason holds. */
  reason: RegExp;
}

const plant = (where: string) => `GPS-${PLANTED_MARK}-47.1234-${where}`;

/** EXIF a phone would write: who, where, which camera (sharp: IFD0 main, IFD3 GPS). */
const exifOf = (where: string) => ({
  IFD0: {
    ImageDescription: plant(`${where}-description`),
    Artist: plant(`${where}-artist`),
    Make: plant(`${where}-make`),
  },
  IFD3: { GPSMapDatum: plant(`${where}-gps`) },
});

const xmpOf = (where: string) =>
  `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">` +
  `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description ` +
  `xmlns:dc="http://purl.org/dc/elements/1.1/" rdf:about=""><dc:creator><rdf:Seq><rdf:li>` +
  `${plant(`${where}-xmp`)}</rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF>` +
  `</x:xmpmeta><?xpacket end="w"?>`;

function makeStill(width: number, height: number, seed: number): Sharp {
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: (seed * 41) % 256, g: 120, b: (seed * 13) % 256 },
    },
  }).composite([
    {
      input: { create: { width: 4, height: 4, channels: 3, background: { r: 250, g: 250, b: 0 } } },
      top: 0,
      left: 0,
    },
  ]);
}

// JPEG ---------------------------------------------------------------------------------------

function buildJpegSegment(marker: number, data: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

/** The EXIF APP1 segment of a JPEG sharp wrote with `exif`. */
async function makeExifSegment(where: string): Promise<Buffer> {
  const jpeg = await makeStill(8, 8, 1).withExif(exifOf(where)).jpeg().toBuffer();
  const start = jpeg.indexOf(Buffer.from([0xff, 0xe1]));
  return jpeg.subarray(start, start + 2 + jpeg.readUInt16BE(start + 2));
}

/** Photoshop's APP13 with one IPTC caption (IPTC IIM 2:120 in an 8BIM 0x0404 resource). */
function buildIptcSegment(where: string): Buffer {
  const caption = Buffer.from(plant(`${where}-iptc`), 'latin1');
  const record = Buffer.concat([Buffer.from([0x1c, 2, 120, 0, 0]), caption]);
  record.writeUInt16BE(caption.length, 3);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(record.length);
  const resource = Buffer.concat([
    Buffer.from('8BIM', 'latin1'),
    Buffer.from([0x04, 0x04, 0, 0]),
    size,
    record,
    Buffer.alloc(record.length % 2),
  ]);
  return buildJpegSegment(
    0xed,
    Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), resource]),
  );
}

const buildXmpSegment = (where: string) =>
  buildJpegSegment(0xe1, Buffer.from(`http://ns.adobe.com/xap/1.0/\0${xmpOf(where)}`, 'latin1'));
const buildCommentSegment = (where: string) =>
  buildJpegSegment(0xfe, Buffer.from(plant(`${where}-comment`), 'latin1'));

/** Inserts `insert` before the `nth` (0-based) start of scan: 0xFFDA only appears as a marker. */
function insertBeforeScan(jpeg: Buffer, nth: number, insert: Buffer): Buffer {
  let at = -1;
  for (let index = 0; index <= nth; index += 1) {
    at = jpeg.indexOf(Buffer.from([0xff, 0xda]), at + 1);
    if (at === -1) throw new Error(`the JPEG has fewer than ${nth + 1} scans`);
  }
  return Buffer.concat([jpeg.subarray(0, at), insert, jpeg.subarray(at)]);
}

/** A Multi-Picture Format APP2 segment (CIPA DC-007) naming a second picture. */
function buildMpfSegment(where: string): Buffer {
  const text = Buffer.from(plant(`${where}-mpf`), 'latin1');
  return buildJpegSegment(
    0xe2,
    Buffer.concat([Buffer.from('MPF\0MM\0\x2a\0\0\0\x08', 'latin1'), text]),
  );
}

// PNG ----------------------------------------------------------------------------------------

function buildPngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

// WebP ---------------------------------------------------------------------------------------

interface RiffChunk {
  fourcc: string;
  data: Buffer;
}

function readRiffChunks(bytes: Buffer, start: number, end: number): RiffChunk[] {
  const chunks: RiffChunk[] = [];
  for (let at = start; at + 8 <= end;) {
    const size = bytes.readUInt32LE(at + 4);
    chunks.push({
      fourcc: bytes.toString('latin1', at, at + 4),
      data: bytes.subarray(at + 8, at + 8 + size),
    });
    at += 8 + size + (size % 2);
  }
  return chunks;
}

function buildRiffChunk({ fourcc, data }: RiffChunk): Buffer {
  const head = Buffer.alloc(8);
  head.write(fourcc, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, Buffer.alloc(data.length % 2)]);
}

function buildWebp(chunks: RiffChunk[]): Buffer {
  const body = Buffer.concat(chunks.map(buildRiffChunk));
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length + 4, 4);
  head.write('WEBP', 8, 'latin1');
  return Buffer.concat([head, body]);
}

// GIF ----------------------------------------------------------------------------------------

function buildSubBlocks(data: Buffer): Buffer {
  const blocks: Buffer[] = [];
  for (let at = 0; at < data.length; at += 255) {
    const part = data.subarray(at, at + 255);
    blocks.push(Buffer.from([part.length]), part);
  }
  return Buffer.concat([...blocks, Buffer.from([0])]);
}

const buildGifApplication = (identifier: string, data: Buffer) =>
  Buffer.concat([
    Buffer.from([0x21, 0xff, 11]),
    Buffer.from(identifier, 'latin1'),
    buildSubBlocks(data),
  ]);

/** Where a GIF's blocks start: after the header, the screen and its color table. */
function findGifBlocks(gif: Buffer): number {
  const packed = gif[10]!;
  return 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);
}

// The corpus ---------------------------------------------------------------------------------

/** Each file a place where metadata hides; each must come out clean and still show the same. */
export async function makeMetadataCorpus(seed: number): Promise<CorpusFile[]> {
  const files: CorpusFile[] = [];
  const still = (width: number, height: number) => makeStill(width, height, seed);

  // JPEG: EXIF segment and text after the end of the image.
  const baseline = await still(24, 16).withExif(exifOf('jpeg-head')).jpeg().toBuffer();
  files.push({
    name: `jpeg-exif-after-eoi-${seed}.jpg`,
    picture: baseline,
    bytes: Buffer.concat([
      baseline,
      await makeExifSegment('jpeg-after-eoi'),
      Buffer.from(plant('jpeg-after-eoi-text')),
    ]),
    expected: { width: 24, height: 16, frames: 1 },
  });

  // Progressive JPEG: EXIF, XMP, IPTC and a comment between its scans.
  const progressive = await still(32, 24).jpeg({ progressive: true }).toBuffer();
  const between = Buffer.concat([
    await makeExifSegment('jpeg-between-scans'),
    buildXmpSegment('jpeg-between-scans'),
    buildIptcSegment('jpeg-between-scans'),
    buildCommentSegment('jpeg-between-scans'),
  ]);
  files.push({
    name: `jpeg-progressive-between-scans-${seed}.jpg`,
    picture: progressive,
    bytes: insertBeforeScan(insertBeforeScan(progressive, 1, between), 4, between),
    expected: { width: 32, height: 24, frames: 1 },
  });

  // Stray bytes after the end of the image.
  const plain = await still(20, 20).jpeg().toBuffer();
  files.push({
    name: `jpeg-stray-bytes-${seed}.jpg`,
    picture: plain,
    bytes: Buffer.concat([plain, Buffer.from(`\0\0${plant('jpeg-stray')}\xff\xd9`, 'latin1')]),
    expected: { width: 20, height: 20, frames: 1 },
  });

  // A phone's Multi-Picture file: an MPF segment, then a preview JPEG with EXIF of its own.
  const preview = await still(8, 6).withExif(exifOf('jpeg-mpf-preview')).jpeg().toBuffer();
  const mpf = await still(28, 20).jpeg().toBuffer();
  files.push({
    name: `jpeg-mpf-preview-${seed}.jpg`,
    picture: mpf,
    bytes: Buffer.concat([
      mpf.subarray(0, 2),
      buildMpfSegment('jpeg-mpf'),
      mpf.subarray(2),
      preview,
    ]),
    expected: { width: 28, height: 20, frames: 1 },
  });

  // A photo taken sideways: its orientation must still show it upright.
  const rotated = await still(30, 18)
    .withMetadata({ orientation: 6 })
    .withExif(exifOf('jpeg-rotated'))
    .jpeg()
    .toBuffer();
  files.push({
    name: `jpeg-rotated-${seed}.jpg`,
    bytes: rotated,
    picture: rotated,
    expected: { width: 18, height: 30, frames: 1 },
  });

  // PNG: text, XMP, EXIF, C2PA and a private chunk after the image data; bytes after IEND.
  const png = await still(18, 12).png().toBuffer();
  const iend = png.length - 12;
  const exifTiff = (await makeExifSegment('png-exif')).subarray(10);
  files.push({
    name: `png-after-idat-${seed}.png`,
    picture: png,
    bytes: Buffer.concat([
      png.subarray(0, iend),
      buildPngChunk('tEXt', Buffer.from(`Comment\0${plant('png-text')}`, 'latin1')),
      buildPngChunk('iTXt', Buffer.from(`XML:com.adobe.xmp\0\0\0\0\0${xmpOf('png')}`, 'latin1')),
      buildPngChunk('eXIf', exifTiff),
      buildPngChunk('caBX', Buffer.from(`jumb${plant('png-c2pa')}`, 'latin1')),
      buildPngChunk('prVt', Buffer.from(plant('png-private'), 'latin1')),
      buildPngChunk('tIME', Buffer.from([7, 234, 12, 7, 12, 0, 0])),
      png.subarray(iend),
      Buffer.from(plant('png-after-iend')),
    ]),
    expected: { width: 18, height: 12, frames: 1 },
  });

  // WebP still: EXIF and XMP chunks as sharp writes them, a chunk of unknown kind, junk after.
  const webp = await still(22, 14)
    .withExif(exifOf('webp'))
    .withXmp(xmpOf('webp'))
    .webp()
    .toBuffer();
  const webpChunks = readRiffChunks(webp, 12, webp.length);
  files.push({
    name: `webp-exif-xmp-${seed}.webp`,
    picture: webp,
    bytes: Buffer.concat([
      buildWebp([...webpChunks, { fourcc: 'JUNK', data: Buffer.from(plant('webp-unknown')) }]),
      Buffer.from(plant('webp-after-riff')),
    ]),
    expected: { width: 22, height: 14, frames: 1 },
  });

  // Animated WebP: EXIF and an unknown chunk inside a frame.
  const animatedWebp = await sharp(
    await makeAnimation({ frames: 3, width: 20, format: 'webp', seed }),
    { animated: true },
  )
    .withExif(exifOf('webp-animated'))
    .webp({ loop: 2 })
    .toBuffer();
  const frames = readRiffChunks(animatedWebp, 12, animatedWebp.length).map((chunk) =>
    chunk.fourcc === 'ANMF'
      ? {
          fourcc: 'ANMF',
          data: Buffer.concat([
            chunk.data,
            buildRiffChunk({ fourcc: 'ZZZZ', data: Buffer.from(plant('webp-frame')) }),
          ]),
        }
      : chunk,
  );
  files.push({
    name: `webp-animated-${seed}.webp`,
    picture: animatedWebp,
    bytes: buildWebp(frames),
    expected: { width: 20, height: 20, frames: 3, loop: 2 },
  });

  // GIF: comment, plain text, XMP, C2PA and a second sub-block in the looping block.
  const gif = await makeAnimation({ frames: 3, width: 20, loop: 3, seed });
  const blocks = findGifBlocks(gif);
  const loopBlock = gif.indexOf(Buffer.from('NETSCAPE2.0', 'latin1')) - 3;
  const loopEnd = loopBlock + 19;
  const plainText = Buffer.concat([
    Buffer.from([0x21, 0x01, 12, 0, 0, 0, 0, 20, 0, 20, 0, 8, 8, 1, 0]),
    buildSubBlocks(Buffer.from(plant('gif-plain-text'))),
  ]);
  const tainted = Buffer.concat([
    gif.subarray(0, blocks),
    Buffer.concat([Buffer.from([0x21, 0xfe]), buildSubBlocks(Buffer.from(plant('gif-comment')))]),
    buildGifApplication('XMP DataXMP', Buffer.from(xmpOf('gif'))),
    buildGifApplication('C2PA_GIF\0\0\0', Buffer.from(`jumb${plant('gif-c2pa')}`)),
    gif.subarray(blocks, loopEnd - 1),
    // The looping block's own sub-blocks can carry more than the loop count.
    buildSubBlocks(Buffer.from(plant('gif-loop-block'))),
    gif.subarray(loopEnd),
  ]);
  const trailer = tainted.length - 1;
  files.push({
    name: `gif-extensions-${seed}.gif`,
    picture: gif,
    bytes: Buffer.concat([
      tainted.subarray(0, trailer),
      plainText,
      tainted.subarray(trailer),
      Buffer.from(plant('gif-after-trailer')),
    ]),
    expected: { width: 20, height: 20, frames: 3, loop: 3 },
  });
  return files;
}

/** Files whose structure cannot be followed: each must be refused, nothing of it stored. */
export async function makeUnfollowableFiles(seed: number): Promise<RefusedFile[]> {
  const jpeg = await makeStill(40, 40, seed).withExif(exifOf('cut-jpeg')).jpeg().toBuffer();
  const png = await makeStill(40, 40, seed).png().toBuffer();
  const badLength = Buffer.from(png);
  badLength.writeUInt32BE(0x00ffffff, 33); // the first chunk after IHDR claims 16 MB
  const webp = await makeStill(40, 40, seed).webp().toBuffer();
  const gif = await makeAnimation({ frames: 2, width: 20, seed });
  return [
    {
      name: `cut-jpeg-${seed}.jpg`,
      bytes: jpeg.subarray(0, jpeg.length - 40),
      reason: /cut short/,
    },
    { name: `bad-length-${seed}.png`, bytes: badLength, reason: /cut short/ },
    {
      name: `cut-webp-${seed}.webp`,
      bytes: webp.subarray(0, webp.length - 10),
      reason: /cut short/,
    },
    // A GIF cut short after its color table keeps its whole frames (and with none, the decoder
    // refuses it); one cut inside the table cannot be followed.
    {
      name: `cut-gif-${seed}.gif`,
      bytes: gif.subarray(0, findGifBlocks(gif) - 2),
      reason: /cut short/,
    },
  ];
}
