import fs from 'node:fs';
import path from 'node:path';
import { listMp4Boxes } from './media.ts';
import type { Mp4Box } from './media.ts';

/** One run of ffmpeg as a recorder (recordFfmpegCalls) saw it. */
export interface FfmpegCall {
  args: string[];
  /** The names of the environment variables ffmpeg was started with. */
  envNames: string[];
}

/**
 * An ffmpeg that writes down how it was called, then is the real one: a shell script to pass
 * as `ffmpegPath`. Builtins only (printf, export), since it runs with the encoder's bare
 * environment (no PATH). Each run writes one file named by its pid.
 */
export function recordFfmpegCalls(
  realFfmpeg: string,
  dir: string,
): { ffmpegPath: string; readCalls: () => FfmpegCall[] } {
  const callsDir = path.join(dir, 'ffmpeg-calls');
  fs.mkdirSync(callsDir, { recursive: true });
  const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;
  const ffmpegPath = path.join(dir, 'recording-ffmpeg');
  fs.writeFileSync(
    ffmpegPath,
    [
      '#!/bin/sh',
      `log=${quote(callsDir)}/call-$$`,
      `for arg in "$@"; do printf '%s\\0' "$arg" >> "$log"; done`,
      `printf '\\0' >> "$log"`,
      'export -p >> "$log"',
      `exec ${quote(realFfmpeg)} "$@"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  const readCalls = () =>
    fs.readdirSync(callsDir).map((name) => {
      const text = fs.readFileSync(path.join(callsDir, name), 'utf8');
      const end = text.indexOf('\0\0');
      const args = text.slice(0, end).split('\0');
      const envNames = [...text.slice(end + 2).matchAll(/^export (\w+)/gm)].map(
        (match) => match[1]!,
      );
      return { args, envNames };
    });
  return { ffmpegPath, readCalls };
}

/** What an MP4's first video track says about its coding (ISO 14496-15, H.264 SPS). */
export interface H264Config {
  /** The sample entry: `avc1` for H.264 with its parameter sets in the `avcC` box. */
  sampleEntry: string;
  /** 66 Baseline, 77 Main, 100 High. */
  profileIdc: number;
  /** 1 is 4:2:0. */
  chromaFormatIdc: number;
  bitDepthLuma: number;
  bitDepthChroma: number;
}

function childBox(data: Buffer, box: Mp4Box, type: string, skip = 0): Mp4Box {
  const found = listMp4Boxes(data, box.start + 8 + skip, box.start + box.size).find(
    (entry) => entry.type === type,
  );
  if (!found) throw new Error(`no ${type} box in ${box.type}`);
  return found;
}

/** Reads Exp-Golomb coded numbers and bits from an SPS's payload. */
class BitReader {
  private position = 0;
  constructor(private readonly bytes: Buffer) {}
  bit(): number {
    const byte = this.bytes[this.position >> 3];
    if (byte === undefined) throw new Error('SPS ended early');
    const bit = (byte >> (7 - (this.position & 7))) & 1;
    this.position += 1;
    return bit;
  }
  bits(count: number): number {
    let value = 0;
    for (let index = 0; index < count; index += 1) value = value * 2 + this.bit();
    return value;
  }
  unsignedExpGolomb(): number {
    let zeros = 0;
    while (this.bit() === 0) zeros += 1;
    return 2 ** zeros - 1 + this.bits(zeros);
  }
}

/** An SPS NAL unit's payload without its emulation prevention bytes (00 00 03). */
function unescapeNal(nal: Buffer): Buffer {
  const out: number[] = [];
  for (let index = 0; index < nal.length; index += 1) {
    if (index >= 2 && nal[index] === 3 && nal[index - 1] === 0 && nal[index - 2] === 0) continue;
    out.push(nal[index]!);
  }
  return Buffer.from(out);
}

/** Profiles whose SPS carries chroma_format_idc and bit depths (ITU-T H.264, 7.3.2.1.1). */
const profilesWithChroma = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

/**
 * The coding of an MP4's video track, read from its boxes (moov › trak › mdia › minf › stbl ›
 * stsd): the sample entry's type, and from the first SPS in `avcC` the profile, chroma format and
 * bit depths. yuv420p is chroma format 1 at 8 bits.
 */
export function readH264Config(data: Buffer): H264Config {
  const moov = listMp4Boxes(data).find((box) => box.type === 'moov');
  if (!moov) throw new Error('no moov box');
  const trak = listMp4Boxes(data, moov.start + 8, moov.start + moov.size).find(
    (box) => box.type === 'trak',
  );
  if (!trak) throw new Error('no trak box');
  const stbl = childBox(data, childBox(data, childBox(data, trak, 'mdia'), 'minf'), 'stbl');
  const stsd = childBox(data, stbl, 'stsd');
  // stsd: version and flags (4), entry count (4), then the sample entries.
  const [entry] = listMp4Boxes(data, stsd.start + 16, stsd.start + stsd.size);
  if (!entry) throw new Error('no sample entry');
  if (entry.type !== 'avc1' && entry.type !== 'avc3') {
    return {
      sampleEntry: entry.type,
      profileIdc: 0,
      chromaFormatIdc: 0,
      bitDepthLuma: 0,
      bitDepthChroma: 0,
    };
  }
  // A visual sample entry: 8 bytes of SampleEntry and 70 of VisualSampleEntry before its boxes.
  const avcC = childBox(data, entry, 'avcC', 78);
  const config = data.subarray(avcC.start + 8, avcC.start + avcC.size);
  const spsCount = config[5]! & 0x1f;
  if (spsCount < 1) throw new Error('avcC holds no SPS');
  const spsLength = config.readUInt16BE(6);
  // Past the NAL header byte: profile_idc, the constraint flags, level_idc, then Exp-Golomb.
  const sps = unescapeNal(config.subarray(9, 8 + spsLength));
  const profileIdc = sps[0]!;
  const reader = new BitReader(sps.subarray(3));
  reader.unsignedExpGolomb(); // seq_parameter_set_id
  let chromaFormatIdc = 1;
  let bitDepthLuma = 8;
  let bitDepthChroma = 8;
  if (profilesWithChroma.has(profileIdc)) {
    chromaFormatIdc = reader.unsignedExpGolomb();
    if (chromaFormatIdc === 3) reader.bit(); // separate_colour_plane_flag
    bitDepthLuma = 8 + reader.unsignedExpGolomb();
    bitDepthChroma = 8 + reader.unsignedExpGolomb();
  }
  return {
    sampleEntry: entry.type,
    profileIdc,
    chromaFormatIdc,
    bitDepthLuma,
    bitDepthChroma,
  };
}
